// The contacts screens in a real Chromium on a server whose store is PostgreSQL: see contacts-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { contactsSuite } from "./contacts-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await contactsSuite("postgres");
