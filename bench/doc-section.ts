// docs/performance.md is written by several instruments, each between its own markers
// `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->`; the rest of the file is left alone.

/** `doc` with the block named `section` replaced by `body` (appended at the end when absent). */
export function replaceSection(doc: string, section: string, body: string): string {
  const begin = `<!-- bench:${section}:begin -->`;
  const end = `<!-- bench:${section}:end -->`;
  const block = `${begin}\n${body.trim()}\n${end}`;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  return i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : doc.trimEnd() + "\n\n" + block + "\n";
}
