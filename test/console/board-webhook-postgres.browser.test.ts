// Issue 23's scenario (a dragged card's signed webhook) on a server whose store is PostgreSQL (C19): see
// board-webhook-suite.ts.
import { setDefaultTimeout } from "bun:test";
import { boardWebhookSuite } from "./board-webhook-suite";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

await boardWebhookSuite("postgres");
