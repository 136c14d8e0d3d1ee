// Output chunking for chat front ends: messages of at most `max` UTF-16 code units (3,500 by default) INCLUDING the
// `[i/N] ` prefix, cut at the same natural breaks as input chunking. A chunk that ends inside a fenced code block
// closes it, and the next reopens it with the same fence and info string, so every message renders on its own.
// N is exact: the prefix room is reserved for N's digit count, and the pass is redone if N outgrows it.
import { findBreak } from "./break.ts";
import { assertChunkMax } from "./input.ts";
import { analyzeMarkdown, type CodeBlock, codeBlockAround, type MarkdownLayout } from "./layout.ts";

export const OUTPUT_CHUNK_MAX = 3_500;
/** Room for the prefix, a reopened fence and its closing line with text to spare. */
export const OUTPUT_CHUNK_MIN = 64;

export interface OutputChunk {
  /** The message to send: prefix + before + content + after. */
  text: string;
  /** The slice of the input this message carries: [start, end). */
  content: string;
  start: number;
  end: number;
  prefix: string;
  /** Added at the start: a line break after the prefix and, inside a code block, the reopened fence line. */
  before: string;
  /** Added at the end: the line that closes a code block the content leaves open. */
  after: string;
}

/** A line that only means what it means at the start of a line (fence, heading, quote, list, table, indent). */
const LINE_START_SYNTAX = /^(?:[ \t]|```|~~~|#|>|\||[-*+](?:[ \t]|\r?\n|$)|\d{1,9}[.)](?:[ \t]|\r?\n|$))/;

interface Planned {
  start: number;
  end: number;
  before: string;
  after: string;
}

function openingFor(layout: MarkdownLayout, start: number, max: number): string {
  const { text } = layout;
  const block = codeBlockAround(layout, start);
  if (block !== null) {
    // An info string too long to repeat is dropped rather than crowding out the content.
    const info = block.info.length > max / 8 ? "" : block.info;
    return `\n${block.fence}${info}\n`;
  }
  const atLineStart = start === 0 || text.charCodeAt(start - 1) === 10;
  // A message starts with the prefix, so syntax that only works at a line start gets a line of its own.
  return atLineStart && LINE_START_SYNTAX.test(text.slice(start, start + 12)) ? "\n" : "";
}

function closingFor(content: string, block: CodeBlock | null): string {
  if (block === null) return "";
  return `${content.endsWith("\n") ? "" : "\n"}${block.fence}`;
}

function planChunks(layout: MarkdownLayout, max: number, prefixRoom: number): Planned[] {
  const { text } = layout;
  const planned: Planned[] = [];
  for (let start = 0; start < text.length; ) {
    const before = openingFor(layout, start, max);
    const room = max - prefixRoom - before.length;
    let budget = room;
    for (;;) {
      if (budget < 2) throw new RangeError(`a chat message of ${max} characters cannot hold this text's fences`);
      const { end } = findBreak(layout, start, start + budget);
      const after = closingFor(text.slice(start, end), codeBlockAround(layout, end));
      if (end - start + after.length <= room) {
        planned.push({ start, end, before, after });
        start = end;
        break;
      }
      budget = room - after.length;
    }
  }
  return planned;
}

const digits = (n: number): number => String(n).length;

export function chunkOutput(text: string, options: { max?: number } = {}): OutputChunk[] {
  const max = options.max ?? OUTPUT_CHUNK_MAX;
  assertChunkMax(max, OUTPUT_CHUNK_MIN);
  if (text.length === 0) return [];
  const layout = analyzeMarkdown(text);
  // N is at least length / max, so start from its digit count: usually one pass.
  let width = digits(Math.ceil(text.length / max));
  let planned = planChunks(layout, max, `[${"9".repeat(width)}/${"9".repeat(width)}] `.length);
  while (digits(planned.length) > width) {
    width = digits(planned.length);
    planned = planChunks(layout, max, `[${"9".repeat(width)}/${"9".repeat(width)}] `.length);
  }
  const total = planned.length;
  return planned.map(({ start, end, before, after }, index) => {
    const prefix = `[${index + 1}/${total}] `;
    const content = text.slice(start, end);
    return { text: `${prefix}${before}${content}${after}`, content, start, end, prefix, before, after };
  });
}
