// Where the next chunk ends: the best break in (start, limit], by preference paragraph > line > sentence > word,
// never inside a fenced code block or glued heading; when none exists (an oversized block or a run of text with no
// break) a forced break: any line start, then any word, then a grapheme boundary, then a code point boundary.
// Each call costs O(log n) plus at most the window it scans, and the caller advances past what was scanned,
// so chunking stays linear.
import { lastAtMost, lineAt, type MarkdownLayout } from "./layout.ts";

export type BreakKind = "end" | "paragraph" | "line" | "sentence" | "word" | "grapheme" | "code-point";

export interface Break {
  end: number;
  kind: BreakKind;
}

const SPACE = 32;
const TAB = 9;
const isBlankChar = (code: number): boolean => code === SPACE || code === TAB;
const isWhitespace = (code: number): boolean => code === SPACE || code === TAB || code === 10 || code === 13;
/** . ! ? … and the CJK 。！？ (which need no space after them). */
const SENTENCE_END = new Set([0x2e, 0x21, 0x3f, 0x2026]);
const CJK_SENTENCE_END = new Set([0x3002, 0xff01, 0xff1f]);
/** Closing quotes and brackets that may follow a sentence's end: " ' ) ] » ” ’ */
const CLOSERS = new Set([0x22, 0x27, 0x29, 0x5d, 0xbb, 0x201d, 0x2019]);
/** Characters that attach to the one before them: a word break before one would split a grapheme. */
const ATTACHES = /^(?:\p{M}|\u200c|\u200d|[\ufe00-\ufe0f]|[\u{1f3fb}-\u{1f3ff}]|[\u{e0020}-\u{e007f}])/u;

let segmenter: Intl.Segmenter | null = null;
function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenter;
}

function lastInWindow(sorted: number[], start: number, limit: number): number | null {
  const index = lastAtMost(sorted, limit);
  const position = index === -1 ? null : (sorted[index] ?? null);
  return position !== null && position > start ? position : null;
}

/** A word starts at p: whitespace before it, a non-space at p that does not attach to the space. */
function isWordStart(text: string, p: number): boolean {
  const code = text.charCodeAt(p);
  if (!isBlankChar(text.charCodeAt(p - 1)) || isWhitespace(code)) return false;
  return code < 0x300 || !ATTACHES.test(text.slice(p, p + 2));
}

function isSentenceStart(text: string, p: number): boolean {
  const previous = text.charCodeAt(p - 1);
  if (previous > 0x3000 && CJK_SENTENCE_END.has(previous)) return !isWhitespace(text.charCodeAt(p));
  if (!isWordStart(text, p)) return false;
  let q = p - 1;
  while (q > 0 && isBlankChar(text.charCodeAt(q))) q -= 1;
  while (q > 0 && CLOSERS.has(text.charCodeAt(q))) q -= 1;
  return SENTENCE_END.has(text.charCodeAt(q));
}

/** The last position in (start, limit] passing `test`, scanning lines backwards; protected lines are skipped. */
function scanBack(
  layout: MarkdownLayout,
  start: number,
  limit: number,
  test: (text: string, p: number) => boolean,
  skipProtected: boolean,
): number | null {
  const { text, lineStarts, lineBlock, lineHeading } = layout;
  const top = Math.min(limit, text.length - 1);
  for (let line = lineAt(layout, top); line >= 0; line -= 1) {
    const lineStart = lineStarts[line] ?? 0;
    if (skipProtected && ((lineBlock[line] ?? 0) !== 0 || (lineHeading[line] ?? 0) !== 0)) {
      if (lineStart <= start) break;
      continue;
    }
    const lineEnd = lineStarts[line + 1] ?? text.length;
    const low = Math.max(lineStart + 1, start + 1);
    for (let p = Math.min(lineEnd - 1, top); p >= low; p -= 1) if (test(text, p)) return p;
    if (lineStart <= start) break;
  }
  return null;
}

/**
 * The last grapheme boundary in (start, limit]. Segmenting from `start` would cost the whole window per chunk,
 * so segmentation starts at a nearby position known to be a boundary: between two printable ASCII characters
 * (grapheme rule GB999), looked for a little before the limit.
 */
function graphemeBreak(text: string, start: number, limit: number): number | null {
  let from = start;
  for (let p = limit - 32; p > start && p > limit - 2048; p -= 1) {
    const before = text.charCodeAt(p - 1);
    const after = text.charCodeAt(p);
    if (before >= 32 && before < 127 && after >= 32 && after < 127) {
      from = p;
      break;
    }
  }
  const segment = graphemeSegmenter()
    .segment(text.slice(from, limit + 1))
    .containing(limit - from);
  return segment !== undefined && from + segment.index > start ? from + segment.index : null;
}

function codePointBreak(text: string, start: number, limit: number): number {
  let end = limit;
  const high = text.charCodeAt(end - 1);
  const low = text.charCodeAt(end);
  if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) end -= 1;
  // A budget of one code unit cannot hold a surrogate pair: the pair goes whole rather than split.
  return end > start ? end : Math.min(text.length, start + 2);
}

/** The end of the chunk that starts at `start` and may not go past `limit` (limit > start). */
export function findBreak(layout: MarkdownLayout, start: number, limit: number): Break {
  const { text } = layout;
  if (limit >= text.length) return { end: text.length, kind: "end" };
  const paragraph = lastInWindow(layout.paragraphBreaks, start, limit);
  if (paragraph !== null) return { end: paragraph, kind: "paragraph" };
  const line = lastInWindow(layout.lineBreaks, start, limit);
  if (line !== null) return { end: line, kind: "line" };
  const sentence = scanBack(layout, start, limit, isSentenceStart, true);
  if (sentence !== null) return { end: sentence, kind: "sentence" };
  const word = scanBack(layout, start, limit, isWordStart, true);
  if (word !== null) return { end: word, kind: "word" };
  // Forced: nothing natural fits. A heading leaves its text before a code block is split.
  const heading = lastInWindow(layout.headingBreaks, start, limit);
  if (heading !== null) return { end: heading, kind: "line" };
  const anyLine = lastInWindow(layout.lineStarts, start, limit);
  if (anyLine !== null) return { end: anyLine, kind: "line" };
  const anyWord = scanBack(layout, start, limit, isWordStart, false);
  if (anyWord !== null) return { end: anyWord, kind: "word" };
  const grapheme = graphemeBreak(text, start, limit);
  if (grapheme !== null) return { end: grapheme, kind: "grapheme" };
  return { end: codePointBreak(text, start, limit), kind: "code-point" };
}
