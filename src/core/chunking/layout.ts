// The markdown layout the chunkers break on: lines, fenced code blocks (``` or ~~~, any length >= 3, with an info
// string, unclosed ones running to the end), headings and lists, and the line-start break candidates ranked by
// how natural a break there is. One linear pass over the lines; positions are UTF-16 offsets into the text.

/** A fenced code block: [start, end) covers the opening fence line through the closing fence line. */
export interface CodeBlock {
  start: number;
  end: number;
  /** The fence run as written (e.g. "```" or "~~~~"). */
  fence: string;
  /** The info string after the fence (e.g. "ts title=a.ts"), trimmed; "" when there is none. */
  info: string;
  closed: boolean;
}

export interface MarkdownLayout {
  text: string;
  /** Start offset of every line (a line ends after its "\n"); lineStarts[0] = 0. */
  lineStarts: number[];
  /** Per line: the index + 1 of the code block it belongs to (fence lines included), 0 outside code. */
  lineBlock: Int32Array;
  /** Per line: 1 when it is a heading line (ATX, or a setext heading's text or underline). */
  lineHeading: Uint8Array;
  blocks: CodeBlock[];
  /** Line starts after a blank-line run, outside code, not gluing a heading to its text (ascending). */
  paragraphBreaks: number[];
  /** Every other line start where a break is allowed before forcing (ascending). */
  lineBreaks: number[];
  /** Line starts outside code that would part a heading from its text: the first forced breaks (ascending). */
  headingBreaks: number[];
}

const OPEN_FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const CLOSE_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const INDENTED = /^[ \t]+\S/;
const BLANK = /^[ \t]*$/;

/** The line's text without its "\n" / "\r\n" ending. */
function lineBody(text: string, start: number, end: number): string {
  let stop = end;
  if (stop > start && text.charCodeAt(stop - 1) === 10) stop -= 1;
  if (stop > start && text.charCodeAt(stop - 1) === 13) stop -= 1;
  return text.slice(start, stop);
}

/** The opening fence on this line, or null (a backtick fence's info string may not contain a backtick). */
export function matchOpenFence(body: string): { fence: string; info: string } | null {
  const match = OPEN_FENCE.exec(body);
  if (match === null) return null;
  const fence = match[1] ?? "";
  const info = (match[2] ?? "").trim();
  if (fence.startsWith("`") && info.includes("`")) return null;
  return { fence, info };
}

export function isClosingFence(body: string, fence: string): boolean {
  const match = CLOSE_FENCE.exec(body);
  const run = match?.[1];
  return run !== undefined && run[0] === fence[0] && run.length >= fence.length;
}

export function analyzeMarkdown(text: string): MarkdownLayout {
  const lineStarts: number[] = [];
  for (let p = 0; p < text.length; ) {
    lineStarts.push(p);
    const nl = text.indexOf("\n", p);
    p = nl === -1 ? text.length : nl + 1;
  }
  const count = lineStarts.length;
  const lineBlock = new Int32Array(count);
  const lineHeading = new Uint8Array(count);
  const blocks: CodeBlock[] = [];
  const paragraphBreaks: number[] = [];
  const lineBreaks: number[] = [];
  const headingBreaks: number[] = [];

  let open: CodeBlock | null = null;
  let previousBlank = false;
  let lastNonBlank: "heading" | "list" | "text" | "none" = "none";
  let previousWasParagraphText = false;
  for (let i = 0; i < count; i += 1) {
    const start = lineStarts[i] ?? 0;
    const end = lineStarts[i + 1] ?? text.length;
    const body = lineBody(text, start, end);
    if (open !== null) {
      lineBlock[i] = blocks.length;
      if (isClosingFence(body, open.fence)) {
        open.end = end;
        open.closed = true;
        open = null;
      }
      // A line start inside the block (after its opening line) is never a natural break.
      previousBlank = false;
      lastNonBlank = "text";
      previousWasParagraphText = false;
      continue;
    }
    const blank = BLANK.test(body);
    const fence = blank ? null : matchOpenFence(body);
    const setext = !blank && previousWasParagraphText && SETEXT_UNDERLINE.test(body);
    if (i > 0 && (setext || lastNonBlank === "heading")) headingBreaks.push(start);
    else if (i > 0) {
      const listContinues = lastNonBlank === "list" && fence === null && (LIST_ITEM.test(body) || INDENTED.test(body));
      if (previousBlank && !blank && !listContinues) paragraphBreaks.push(start);
      else lineBreaks.push(start);
    }
    if (fence !== null) {
      open = { start, end: text.length, fence: fence.fence, info: fence.info, closed: false };
      blocks.push(open);
      lineBlock[i] = blocks.length;
      lastNonBlank = "text";
      previousWasParagraphText = false;
    } else if (blank) {
      previousWasParagraphText = false;
    } else if (setext || HEADING.test(body)) {
      lineHeading[i] = 1;
      if (setext) lineHeading[i - 1] = 1;
      lastNonBlank = "heading";
      previousWasParagraphText = false;
    } else if (LIST_ITEM.test(body) || (lastNonBlank === "list" && INDENTED.test(body))) {
      lastNonBlank = "list";
      previousWasParagraphText = false;
    } else {
      lastNonBlank = "text";
      previousWasParagraphText = true;
    }
    previousBlank = blank;
  }
  return { text, lineStarts, lineBlock, lineHeading, blocks, paragraphBreaks, lineBreaks, headingBreaks };
}

/** Index of the last element <= value in an ascending array, or -1. */
export function lastAtMost(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? 0) <= value) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** The line containing `position` (a position at a line start belongs to that line). */
export function lineAt(layout: MarkdownLayout, position: number): number {
  return Math.max(0, lastAtMost(layout.lineStarts, position));
}

/**
 * The code block a cut at `position` would fall inside (the block started before it and has not ended), or null.
 * A cut at the very end of the text is inside only an unclosed block.
 */
export function codeBlockAround(layout: MarkdownLayout, position: number): CodeBlock | null {
  if (position <= 0) return null;
  if (position >= layout.text.length) {
    const last = layout.blocks.at(-1);
    return last !== undefined && !last.closed ? last : null;
  }
  const line = lineAt(layout, position);
  const blockIndex = layout.lineBlock[line] ?? 0;
  if (blockIndex === 0) return null;
  const block = layout.blocks[blockIndex - 1] ?? null;
  return block !== null && position > block.start && position < block.end ? block : null;
}
