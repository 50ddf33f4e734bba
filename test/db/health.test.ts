// The liveness probe's query module (src/db/health.ts, src/db/pg/health.ts) on the store under
// test: an answering database answers on both engines, inside a read snapshot or not.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, storeUnderTest } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

describe.each(ENGINES)("health on %s", (engine) => {
  test("ping resolves with nothing while the database answers", async () => {
    const s = await storeUnderTest(engine);
    expect(await s.health.ping()).toBeUndefined();
    expect(await s.read(() => s.health.ping())).toBeUndefined();
  });
});
