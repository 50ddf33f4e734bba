// C1: synchronous=FULL by default (a committed write survives a power loss); env DOSSIER_SYNC=normal
// trades that for speed. Checked on the connection the app really uses, through the environment.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openContext } from "../../src/context";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const synchronousOf = async (env: Record<string, string>) => {
  const ctx = openContext({ dataDir: tempDir(), env });
  try {
    return ctx.store.sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous;
  } finally {
    await ctx.store.close();
  }
};

describe("C1 DOSSIER_SYNC through the environment", () => {
  test("unset: synchronous=2 (FULL)", async () => {
    expect((await synchronousOf({}))).toBe(2);
  });
  test("DOSSIER_SYNC=full: synchronous=2 (FULL)", async () => {
    expect((await synchronousOf({ DOSSIER_SYNC: "full" }))).toBe(2);
  });
  test("DOSSIER_SYNC=normal: synchronous=1 (NORMAL)", async () => {
    expect((await synchronousOf({ DOSSIER_SYNC: "normal" }))).toBe(1);
  });
  test("another value is refused, naming the variable", () => {
    expect(() => openContext({ dataDir: tempDir(), env: { DOSSIER_SYNC: "off" } })).toThrow("DOSSIER_SYNC");
  });
});
