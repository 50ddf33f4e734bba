// The exports in a real Chromium on a server whose store is SQLite: see exports-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { exportsSuite } from "./exports-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await exportsSuite("sqlite");
