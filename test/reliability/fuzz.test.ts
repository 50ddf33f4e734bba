// Issue 7 fuzzing on SQLite: see fuzz-suite.ts (fuzz-postgres.test.ts runs it on PostgreSQL).
import { setDefaultTimeout } from "bun:test";
import { fuzzSuite } from "./fuzz-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await fuzzSuite("sqlite", { runs: 1000, wireRuns: 1000 });
