// fast-check generators of markdown that stresses the chunkers (prose, headings, lists, fenced code of every fence
// kind, unclosed fences, CRLF, emoji, combining marks, ZWJ sequences, runs with no break at all), and an
// independent fence scanner the property tests check the chunkers against.
import fc from "fast-check";

const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "src/app.ts",
  "x",
  "naïve",
  "e\u0301te\u0301",
  "日本語",
  "🙂",
  "👩‍💻",
];
const EMOJI = ["👨‍👩‍👧‍👦", "🇫🇷", "👍🏽", "e\u0301", "a\u0308\u0323", "❤️", "😀"];

const word = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...EMOJI), fc.string({ minLength: 1, maxLength: 6 }));
const sentence = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 12 }), fc.constantFrom(".", "!", "?", "。", "", ":"))
  .map(([words, end]) => `${words.join(" ")}${end}`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 5 }).map((sentences) => sentences.join(" "));
const heading = fc
  .tuple(fc.integer({ min: 1, max: 6 }), sentence)
  .map(([level, text]) => `${"#".repeat(level)} ${text}`);
const listItem = fc.tuple(fc.constantFrom("- ", "* ", "1. ", "2) ", "  - "), sentence).map(([m, t]) => `${m}${t}`);
const list = fc.array(listItem, { minLength: 1, maxLength: 6 }).map((items) => items.join("\n"));
const codeLine = fc.oneof(
  fc.constantFrom("const a = 1;", "  return x;", "", "# not a heading", "``", "~~", "  }", "if (a) { b(); }"),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[`~\r\n]/g, "")),
);
const fence = fc.tuple(fc.constantFrom("`", "~"), fc.integer({ min: 3, max: 5 })).map(([c, n]) => c.repeat(n));
const codeBlock = fc
  .tuple(
    fence,
    fc.constantFrom("", "ts", "python", " bash title=run.sh"),
    fc.array(codeLine, { maxLength: 12 }),
    fc.boolean(),
  )
  .map(([f, info, lines, longerCloser]) => [`${f}${info}`, ...lines, longerCloser ? `${f}${f[0]}` : f].join("\n"));
const noBreakRun = fc.integer({ min: 1, max: 200 }).map((n) => "z".repeat(n));
const block = fc.oneof(
  { weight: 4, arbitrary: paragraph },
  { weight: 1, arbitrary: heading },
  { weight: 2, arbitrary: list },
  { weight: 2, arbitrary: codeBlock },
  { weight: 1, arbitrary: noBreakRun },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
);

/** A markdown document; sometimes with CRLF endings, sometimes ending inside an unclosed fence. */
export const markdownArbitrary = fc
  .tuple(
    fc.array(fc.tuple(block, fc.constantFrom("\n\n", "\n", "\n\n\n")), { maxLength: 14 }),
    fc.boolean(),
    fc.option(fc.tuple(fence, fc.array(codeLine, { maxLength: 8 })), { freq: 4 }),
  )
  .map(([blocks, crlf, unclosed]) => {
    let text = blocks.map(([b, sep]) => `${b}${sep}`).join("");
    if (unclosed !== null) text += [`${unclosed[0]}js`, ...unclosed[1]].join("\n");
    return crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  });

export interface ScannedBlock {
  start: number;
  end: number;
  closed: boolean;
}

/** Fenced code blocks as a reader sees them: any indent, a run of >= 3 ` or ~, closed by a run of the same, >= as long. */
export function scanFences(text: string): { blocks: ScannedBlock[]; open: boolean } {
  const blocks: ScannedBlock[] = [];
  let current: { start: number; char: string; length: number } | null = null;
  let position = 0;
  for (const rawLine of text.split("\n")) {
    const lineEnd = Math.min(text.length, position + rawLine.length + 1);
    const line = rawLine.replace(/\r$/, "");
    if (current === null) {
      const open = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
      if (open?.[1] !== undefined && !(open[1][0] === "`" && (open[2] ?? "").includes("`"))) {
        current = { start: position, char: open[1][0] ?? "", length: open[1].length };
      }
    } else {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close?.[1] !== undefined && close[1][0] === current.char && close[1].length >= current.length) {
        blocks.push({ start: current.start, end: lineEnd, closed: true });
        current = null;
      }
    }
    position = lineEnd;
  }
  if (current !== null) blocks.push({ start: current.start, end: text.length, closed: false });
  return { blocks, open: current !== null };
}

export const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
export const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
