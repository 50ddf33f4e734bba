// The board's second round in a real Chromium on a server whose store is PostgreSQL: see board-round2-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { boardRound2Suite } from "./board-round2-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await boardRound2Suite("postgres");
