// C19: the scenario of every route, each answer checked against the document, on a server whose
// store is PostgreSQL (see contract-suite.ts; the document's own checks run once, on SQLite).
import { setDefaultTimeout } from "bun:test";
import { contractSuite } from "./contract-suite";

setDefaultTimeout(180_000); // Bun keeps a timeout per test file (test/preload.ts)

await contractSuite("postgres", { documentTests: false });
