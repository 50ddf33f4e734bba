// The settings screens in a real Chromium on a server whose store is PostgreSQL: see settings-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { settingsSuite } from "./settings-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await settingsSuite("postgres");
