// Issue 7: webhook secrets are sealed at rest under the data folder's master key.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadMasterKey, seal, unseal } from "../src/secrets";
import { tempDir } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("sealed secrets", () => {
  test("round-trip; the sealed text does not contain the secret; each seal differs", () => {
    const key = loadMasterKey(null);
    const secret = "whsec_abcdefghijklmnopqrstuvwxyz012345";
    const a = seal(key, secret);
    const b = seal(key, secret);
    expect(a).not.toContain("abcdefghij");
    expect(a).not.toBe(b);
    expect(unseal(key, a)).toBe(secret);
    expect(unseal(key, b)).toBe(secret);
  });

  test("another key, or a tampered seal, cannot open it", () => {
    const sealed = seal(loadMasterKey(null), "whsec_x");
    expect(() => unseal(loadMasterKey(null), sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "B" : "A") + sealed.slice(-1);
    expect(() => unseal(loadMasterKey(null), tampered)).toThrow();
  });

  test("the master key file is created once, mode 0600, and read back the same", () => {
    const dir = tempDir();
    const first = loadMasterKey(join(dir, "master.key"));
    expect(loadMasterKey(join(dir, "master.key")).equals(first)).toBe(true);
    expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
  });
});
