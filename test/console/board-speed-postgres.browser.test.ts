// The board of a flow holding 2,000 dossiers, first load, on a server whose store is PostgreSQL (C19): see board-speed-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { boardSpeedSuite } from "./board-speed-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await boardSpeedSuite("postgres");
