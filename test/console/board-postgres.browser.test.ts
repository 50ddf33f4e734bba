// The board in a real Chromium on a server whose store is PostgreSQL (C19): see board-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { boardSuite } from "./board-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await boardSuite("postgres");
