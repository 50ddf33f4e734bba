// The pure parts of `npm run bench -- --against <commit>` (bench/against.ts): the option, the
// ratio line, the names --only accepts, and the replacement of a marked section of
// docs/performance.md (bench/doc-section.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { CASES, NAMES, parseAgainst, ratioLine } from "../../bench/against";
import { replaceSection } from "../../bench/doc-section";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("parseAgainst", () => {
  test("one commit, repeated options and comma lists, in order and once each", () => {
    expect(parseAgainst(["--quick"])).toEqual([]);
    expect(parseAgainst(["--against", "59a0f0d", "--quick"])).toEqual(["59a0f0d"]);
    expect(parseAgainst(["--against", "59a0f0d,28fc124"])).toEqual(["59a0f0d", "28fc124"]);
    expect(parseAgainst(["--against", "59a0f0d", "--quick", "--against=28fc124, 59a0f0d"])).toEqual(["59a0f0d", "28fc124"]);
  });

  test("--against without a commit is refused", () => {
    expect(() => parseAgainst(["--against"])).toThrow("--against needs a commit");
    expect(() => parseAgainst(["--against", "--quick"])).toThrow("--against needs a commit");
    expect(() => parseAgainst(["--against="])).toThrow("--against needs a commit");
  });
});

describe("ratioLine", () => {
  test("two decimals per figure, n/a for one not measured", () => {
    expect(ratioLine("59a0f0d", [["list", 1.0234], ["list50", 0.5], ["contact", undefined], ["q", NaN]])).toBe(
      "vs 59a0f0d: list=1.02 list50=0.50 contact=n/a q=n/a",
    );
    expect(ratioLine("28fc124 (cache off)", [["list", 2]])).toBe("vs 28fc124 (cache off): list=2.00");
  });
});

test("every endpoint of the brief has a name --only accepts, and the mixed day too", () => {
  expect(NAMES).toEqual(["list", "list50", "list100", "deep", "filtered", "won", "q", "get", "contact", "notes", "flows", "search", "create", "patch", "mixed"]);
  expect(CASES.filter((c) => c.write).map((c) => c.name)).toEqual(["create", "patch"]);
});

describe("replaceSection", () => {
  test("appends a missing section, then replaces it in place and leaves the rest alone", () => {
    const first = replaceSection("# Performance\n\nintro\n", "against-59a0f0d", "## one\n");
    expect(first).toBe("# Performance\n\nintro\n\n<!-- bench:against-59a0f0d:begin -->\n## one\n<!-- bench:against-59a0f0d:end -->\n");
    const both = replaceSection(first + "\nafter\n", "against-28fc124", "## other");
    const again = replaceSection(both, "against-59a0f0d", "## two");
    expect(again).toContain("<!-- bench:against-59a0f0d:begin -->\n## two\n<!-- bench:against-59a0f0d:end -->\n\nafter\n");
    expect(again).toContain("<!-- bench:against-28fc124:begin -->\n## other\n<!-- bench:against-28fc124:end -->");
    expect(again).not.toContain("## one");
  });
});
