// A small seeded generator (mulberry32): the demo data, the bench's folders and the tests' random
// scenarios come out the same for the same seed, so a run can be repeated and a failure replayed.
// Not for secrets (src/ids.ts and node:crypto are).

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}
