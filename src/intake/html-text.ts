// HTML mail turned into plain text (C15: a message that is only HTML), as a stream: htmlparser2's
// tokenizer calls back per tag and per piece of text, and the text is written out as it comes. No
// tree is built and nothing recurses, so the cost is the text kept, not the markup: 10,000 nested
// <div>s or 30,000 unclosed <b>s are as cheap as flat HTML (a DOM converter such as html-to-text
// ran out of stack on them and held about 100 bytes per byte of HTML, issue 32).
//
// Blocks (p, div, li, tr, headings...) start lines, paragraphs and lists are set off by a blank
// line, <br> ends a line, list items get "* " or "1. ", a link's address follows its text in
// brackets when it says something the text does not, <pre> keeps its spacing, and script, style,
// title, template and images give nothing. Entities are decoded by the tokenizer.
import { Parser } from "htmlparser2";

/** At most this much HTML is read (2 MB, in characters); the rest is ignored and `truncated` says so. */
export const HTML_LIMIT = 2_097_152;

export interface HtmlText {
  text: string;
  /** True when the HTML was longer than HTML_LIMIT: its end was not read. */
  truncated: boolean;
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(["script", "style", "title", "template"]);
/** Elements that stand on lines of their own, set off by a blank line. */
const PARAGRAPHS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl", "hr", "figure", "address"]);
/** Elements that stand on lines of their own. */
const LINES = new Set([
  "div", "li", "tr", "dt", "dd", "section", "article", "header", "footer", "nav", "aside", "main", "form", "fieldset",
  "legend", "caption", "thead", "tbody", "tfoot", "center", "details", "summary", "figcaption", "body", "html",
]);
/** Table cells: side by side, a space apart. */
const CELLS = new Set(["td", "th"]);
const SPACE = /[ \t\n\r\f\u00a0\u200b]+/g;
const CHUNK = 65_536;

/** The text of `html`. Stops reading once it has `enough` characters of text (the caller keeps no
 * more) or once it has read HTML_LIMIT characters of HTML. Never throws on any input. */
export function htmlToText(html: string, enough = Infinity): HtmlText {
  const converter = new HtmlConverter(enough);
  for (let at = 0; at < html.length && converter.write(html.slice(at, at + CHUNK)); at += CHUNK);
  return { text: converter.end().text, truncated: html.length > HTML_LIMIT };
}

/** HTML given piece by piece (a part decoded as it is read, src/intake/mime.ts): the same text as
 * htmlToText of the pieces joined. Holds the text made and the tag being read, never the HTML. */
export class HtmlConverter {
  private readonly out: TextOut;
  private readonly parser: Parser;
  private read = 0;
  private held = "";
  private truncated = false;

  constructor(enough = Infinity) {
    const out = (this.out = new TextOut(enough));
    const lists: { ordered: boolean; n: number }[] = [];
    const links: { href: string; start: number }[] = [];
    let hidden = 0;
    let pre = 0;
    this.parser = new Parser(
      {
        onopentag(name, attributes) {
          if (HIDDEN.has(name)) hidden++;
          if (hidden > 0) return;
          if (name === "br") return out.lineBreak();
          if (PARAGRAPHS.has(name)) out.breaks(2);
          else if (LINES.has(name)) out.breaks(1);
          else if (CELLS.has(name)) out.space();
          if (name === "pre") pre++;
          else if (name === "hr") out.text("----------");
          else if (name === "ul" || name === "ol") lists.push({ ordered: name === "ol", n: 0 });
          else if (name === "li") {
            const list = lists.at(-1);
            const indent = "  ".repeat(Math.min(Math.max(lists.length - 1, 0), 5));
            out.text(list?.ordered ? `${indent}${++list.n}. ` : `${indent}* `, false);
          } else if (name === "a") links.push({ href: (attributes.href ?? "").trim(), start: out.length });
        },
        onclosetag(name) {
          if (HIDDEN.has(name)) {
            hidden = Math.max(0, hidden - 1);
            return;
          }
          if (hidden > 0) return;
          if (PARAGRAPHS.has(name)) out.breaks(2);
          else if (LINES.has(name)) out.breaks(1);
          else if (CELLS.has(name)) out.space();
          if (name === "pre") pre = Math.max(0, pre - 1);
          else if (name === "ul" || name === "ol") lists.pop();
          else if (name === "a") {
            const link = links.pop();
            if (link && shownAddress(link.href, out.since(link.start))) out.text(` [${link.href}]`, false);
          }
        },
        ontext(data) {
          if (hidden > 0) return;
          if (pre > 0) out.verbatim(data);
          else out.flowing(data);
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
    );
  }

  /** Reads `html`, the next piece; false once HTML_LIMIT is passed (what follows is not read). Once
   * the text holds `enough`, pieces are only counted, to learn whether the HTML is longer. */
  write(html: string): boolean {
    if (this.read >= HTML_LIMIT) {
      if (html !== "") this.truncated = true;
      return false;
    }
    let piece = html;
    if (this.read + piece.length > HTML_LIMIT) {
      this.truncated = true;
      piece = piece.slice(0, HTML_LIMIT - this.read);
    }
    this.read += piece.length;
    // A tag still open at the end of a piece waits for the next: cut HTML ends before it.
    piece = this.held + piece;
    const open = piece.lastIndexOf("<");
    this.held = open > piece.lastIndexOf(">") ? piece.slice(open) : "";
    if (this.held !== "") piece = piece.slice(0, open);
    if (!this.out.full) this.parser.write(piece);
    return !this.truncated;
  }

  end(): HtmlText {
    if (!this.truncated && this.held !== "" && !this.out.full) this.parser.write(this.held);
    this.parser.end();
    return { text: this.out.toString(), truncated: this.truncated };
  }
}

/** A link's address is worth showing when it goes somewhere and its text does not already say it. */
function shownAddress(href: string, text: string): boolean {
  if (href === "" || href.startsWith("#") || /^javascript:/i.test(href) || /^cid:/i.test(href)) return false;
  const said = text.trim();
  return said !== "" && said !== href && `mailto:${said}` !== href;
}

/** Text written line by line: white space collapsed, no white space at a line's end, at most the
 * line breaks asked for between blocks; it stops taking text once it holds `enough`. */
class TextOut {
  private out = "";
  /** Line breaks asked for before the next text. */
  private pending = 0;
  private spaced = false;
  /** How many line breaks the text ends with. */
  private trailing = 0;
  full = false;

  constructor(private readonly enough: number) {}

  get length() {
    return this.out.length;
  }

  since(start: number): string {
    return this.out.slice(start);
  }

  breaks(n: number) {
    this.pending = Math.max(this.pending, n);
  }

  space() {
    this.spaced = true;
  }

  /** <br>: the line ends here, even when it is empty. */
  lineBreak() {
    if (this.out === "") return;
    this.flushBreaks();
    this.write("\n");
    this.trailing++;
  }

  /** Text in the flow: runs of white space are one space, none at the start of a line. */
  flowing(data: string) {
    const words = data.replace(SPACE, " ");
    if (words === " ") return this.space();
    if (words.startsWith(" ")) this.spaced = true;
    const trimmed = words.trim();
    if (trimmed !== "") this.text(trimmed, true);
    if (words.endsWith(" ")) this.spaced = true;
  }

  /** Text in <pre>: as it is, line ends included. */
  verbatim(data: string) {
    const text = data.replace(/\r\n?/g, "\n");
    if (text === "") return;
    this.flushBreaks();
    this.write(text);
    const end = /\n*$/.exec(text)![0].length;
    this.trailing = end === text.length ? this.trailing + end : end;
    this.spaced = false;
  }

  /** `data` (no white space at either end when `spacing`), after the breaks or the space asked for. */
  text(data: string, spacing = true) {
    if (this.full) return;
    const atLineStart = this.flushBreaks() || this.out === "" || this.trailing > 0;
    if (this.spaced && spacing && !atLineStart && !this.out.endsWith(" ")) this.write(" ");
    this.spaced = false;
    this.write(data);
    this.trailing = 0;
  }

  /** Writes the line breaks asked for; true when it wrote any. */
  private flushBreaks(): boolean {
    if (this.pending === 0 || this.out === "") {
      this.pending = 0;
      return false;
    }
    const missing = this.pending - this.trailing;
    this.pending = 0;
    this.spaced = false;
    if (missing <= 0) return false;
    this.write("\n".repeat(missing));
    this.trailing += missing;
    return true;
  }

  private write(text: string) {
    if (this.full) return;
    this.out += text;
    if (this.out.length >= this.enough) this.full = true;
  }

  toString() {
    return this.out;
  }
}
