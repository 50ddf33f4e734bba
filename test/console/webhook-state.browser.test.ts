// The webhook state in the console in a real Chromium on a server whose store is SQLite: see webhook-state-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { webhookStateSuite } from "./webhook-state-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await webhookStateSuite("sqlite");
