// How deep a JSONL text's lines nest, counted byte by byte as the text streams past, without parsing: an imported
// bundle's transcripts are checked with it before anything is written, so a line rewriteTranscriptLine would refuse
// (deeper than MAX_JSON_DEPTH, transcript-cwd.ts) refuses the whole bundle first. A counter, not a parser: it never
// recurses and holds no line, whatever the line's depth or length.
import { MAX_JSON_DEPTH } from "./transcript-cwd.ts";

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private line = 1;
  /** The first line nesting deeper than the limit, or null. */
  tooDeepLine: number | null = null;

  private readonly limit: number;

  constructor(limit: number = MAX_JSON_DEPTH) {
    this.limit = limit;
  }

  /** Counts the next bytes of the text (pieces may end anywhere, even inside a string or a UTF-8 character). */
  push(bytes: Uint8Array): void {
    if (this.tooDeepLine !== null) return;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      // JSON strings hold no raw newline: a newline ends the line whatever came before.
      if (byte === NEWLINE) {
        this.depth = 0;
        this.inString = false;
        this.escaped = false;
        this.line += 1;
      } else if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) this.inString = true;
      else if (byte === 0x5b || byte === 0x7b) {
        this.depth += 1;
        if (this.depth > this.limit) {
          this.tooDeepLine = this.line;
          return;
        }
      } else if ((byte === 0x5d || byte === 0x7d) && this.depth > 0) this.depth -= 1;
    }
  }
}
