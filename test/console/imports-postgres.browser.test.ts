// The imports screen in a real Chromium on a server whose store is PostgreSQL: see imports-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { importsSuite } from "./imports-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await importsSuite("postgres");
