// The tasks screens in a real Chromium on a server whose store is SQLite: see tasks-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { tasksSuite } from "./tasks-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await tasksSuite("sqlite");
