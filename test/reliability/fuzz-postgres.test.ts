// Issue 7 fuzzing on PostgreSQL (C19): see fuzz-suite.ts. Half the runs of SQLite by default:
// each request there is a few round trips to the test server, and the fingerprint taken before and
// after each one is a query over every table.
import { setDefaultTimeout } from "bun:test";
import { fuzzSuite } from "./fuzz-suite";

setDefaultTimeout(180_000); // Bun keeps a timeout per test file (test/preload.ts)

await fuzzSuite("postgres", { runs: 500, wireRuns: 500 });
