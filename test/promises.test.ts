// C19: the store answers promises, and one nobody awaits inside a unit of work runs after its
// commit (or its error goes nowhere). tsc does not see it; scripts/check-promises.ts does.
import { expect, setDefaultTimeout, test } from "bun:test";
import { unawaitedPromises } from "../scripts/check-promises";

// It type-checks all of src: about a minute alone, 175 s once beside the suite's other files on a
// loaded machine.
setDefaultTimeout(400_000); // Bun keeps a timeout per test file (test/preload.ts)

test("no promise in src is left unawaited, given where a value goes, or returned from a try (unless a comment says why)", () => {
  expect(unawaitedPromises("src")).toEqual([]);
});
