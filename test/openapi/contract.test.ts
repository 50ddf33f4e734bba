// Issue 8, "a document that cannot lie", on SQLite: see contract-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { contractSuite } from "./contract-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await contractSuite("sqlite", { documentTests: true });
