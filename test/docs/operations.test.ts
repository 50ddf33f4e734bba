// Issue 8: docs/operations.md's walk-through runs as written.
import { expect, test } from "bun:test";
import { runBlock, walkThroughBlocks } from "./run-blocks";

test("docs/operations.md walk-through", () => {
  const blocks = walkThroughBlocks("docs/operations.md");
  expect(blocks.length).toBeGreaterThan(0);
  for (const block of blocks) {
    const result = runBlock(block);
    if (result.exitCode !== 0) throw new Error(`block failed (${result.exitCode}):\n${block}\n${result.stderr}`);
  }
});
