// bench/profile.ts: a CPU profile's samples put in the stages of a request by the frames on their
// stacks (issue 33's split), checked on a small profile made by hand.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { stagesOf } from "../../bench/profile";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

describe("stagesOf", () => {
  // root → handle (route.ts) → admit (auth.ts) → of (generations.ts) → get (native)
  //                          → readSnapshot (snapshot.ts) → run (native)
  //                          → etagOf (etag.ts)
  //      → (idle)
  const profile = {
    nodes: [
      frame(1, "(root)", "", [2, 8]),
      frame(2, "handle", "file:///x/src/http/route.ts", [3, 6, 7]),
      frame(3, "admit", "file:///x/src/http/auth.ts", [4]),
      frame(4, "of", "file:///x/src/db/generations.ts", [5]),
      frame(5, "get", ""),
      frame(6, "readSnapshot", "file:///x/src/db/snapshot.ts", [9]),
      frame(7, "etagOf", "file:///x/src/http/etag.ts"),
      frame(8, "(idle)", ""),
      frame(9, "run", ""),
    ],
    samples: [5, 5, 9, 7, 8, 2],
    timeDeltas: [0, 100, 100, 100, 100, 100, 100],
  };

  test("the key check's SQL is authentication; BEGIN and COMMIT are the snapshot's; idle is left out", () => {
    const { busyUs, byStage } = stagesOf(profile, 100);
    expect(busyUs).toBe(500);
    expect(Object.fromEntries(byStage)).toEqual({
      authentication: 200,
      "read snapshot (BEGIN, COMMIT)": 100,
      ETag: 100,
      "route and handler": 100,
    });
  });

  test("the sample before a pause stands for at most two intervals, not the pause", () => {
    const paused = { ...profile, samples: [5], timeDeltas: [0, 5_000_000] };
    expect(stagesOf(paused, 100).busyUs).toBe(200);
  });
});
