// The console on narrow screens in a real Chromium on a server whose store is SQLite: see responsive-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { responsiveSuite } from "./responsive-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await responsiveSuite("sqlite");
