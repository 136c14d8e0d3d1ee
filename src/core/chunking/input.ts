// Input chunking: long text cut into chunks of at most `max` UTF-16 code units (15,000 by default) at the most
// natural break that fits (see break.ts), keeping fenced code blocks, headings and lists whole where they
// fit. Nothing is lost or changed: the chunks' texts joined give back the input exactly (CRLF included).
import { type BreakKind, findBreak } from "./break.ts";
import { analyzeMarkdown, codeBlockAround } from "./layout.ts";

export const INPUT_CHUNK_MAX = 15_000;
/** The smallest usable budget: two code units always hold one whole code point. */
export const INPUT_CHUNK_MIN = 2;

export interface InputChunk {
  index: number;
  text: string;
  /** [start, end) in the input, UTF-16 offsets. */
  start: number;
  end: number;
  /** How the chunk ends: "end" for the last one, else the kind of break it was cut at. */
  breakKind: BreakKind;
  /** Set when the chunk ends inside a fenced code block that goes on in the next chunk. */
  continuesCodeBlock?: true;
  /** The fence and info string of that block, so a reader can reopen it. */
  codeFence?: { fence: string; info: string };
}

export function assertChunkMax(max: number, min: number): void {
  if (!Number.isSafeInteger(max) || max < min) {
    throw new RangeError(`chunk size must be an integer >= ${min}, got ${String(max)}`);
  }
}

export function chunkInput(text: string, options: { max?: number } = {}): InputChunk[] {
  const max = options.max ?? INPUT_CHUNK_MAX;
  assertChunkMax(max, INPUT_CHUNK_MIN);
  if (text.length === 0) return [];
  const layout = analyzeMarkdown(text);
  const chunks: InputChunk[] = [];
  for (let start = 0; start < text.length; ) {
    const { end, kind } = findBreak(layout, start, start + max);
    const chunk: InputChunk = { index: chunks.length, text: text.slice(start, end), start, end, breakKind: kind };
    const block = end < text.length ? codeBlockAround(layout, end) : null;
    if (block !== null) {
      chunk.continuesCodeBlock = true;
      chunk.codeFence = { fence: block.fence, info: block.info };
    }
    chunks.push(chunk);
    start = end;
  }
  return chunks;
}
