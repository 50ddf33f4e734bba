// The board's filters in a real Chromium on a server whose store is SQLite: see board-filters-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { boardFiltersSuite } from "./board-filters-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await boardFiltersSuite("sqlite");
