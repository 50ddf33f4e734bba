// Ids (api-v1 "Conventions": UUID strings; C7: event ids `evt_` + 26 or more characters) that lead
// with their creation time, so that indexes keyed by them grow at one edge (issue 6).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { isUuid, newId, timeOrderedId } from "../src/ids";
import { eventIdOf } from "../src/services/outbox";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("ids", () => {
  test("newId is a UUID (version 7) and ids made in later milliseconds sort after earlier ones", async () => {
    const first = newId();
    expect(isUuid(first)).toBe(true);
    expect(first[14]).toBe("7");
    await Bun.sleep(2);
    const later = Array.from({ length: 50 }, () => newId());
    for (const id of later) expect(id > first).toBe(true);
    expect(new Set(later).size).toBe(later.length);
  });

  test("timeOrderedId: 26 characters of [0-9A-Z] whose first 10 encode the time, ordered by it", () => {
    const at = Date.UTC(2026, 10, 23, 9, 30);
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9A-Z]{26}$/);
    expect(timeOrderedId(at).slice(0, 10)).toBe(id.slice(0, 10));
    expect(timeOrderedId(at + 1).slice(0, 10) > id.slice(0, 10)).toBe(true);
    expect(timeOrderedId(at + 86_400_000) > timeOrderedId(at)).toBe(true);
    expect(timeOrderedId(0).slice(0, 10)).toBe("0000000000");
    const ids = Array.from({ length: 200 }, () => timeOrderedId(at));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("C7, C20 Event ids: evt_ and the commit sequence zero-padded to 26 digits, sorting as strings in sequence order", () => {
    expect(eventIdOf(1)).toBe("evt_00000000000000000000000001");
    expect(eventIdOf(1)).toMatch(/^evt_[A-Za-z0-9]{26,}$/);
    const seqs = [1, 2, 9, 10, 99, 100, 123_456_789, Number.MAX_SAFE_INTEGER];
    const ids = seqs.map(eventIdOf);
    expect([...ids].sort()).toEqual(ids);
  });
});
