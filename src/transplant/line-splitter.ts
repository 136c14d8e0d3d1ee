// A JSONL file's lines as its bytes stream past in pieces that end anywhere: each line (without its newline) handed
// on whole, one at a time, so a transcript is rewritten line by line without ever being held whole. Lines longer
// than `maxLineBytes` are passed over (for a look that only needs short lines: a first `cwd`).

export class LineSplitter {
  private parts: Buffer[] = [];
  private pending = 0;
  private skipping = false;

  private readonly maxLineBytes: number;

  constructor(maxLineBytes: number = Number.POSITIVE_INFINITY) {
    this.maxLineBytes = maxLineBytes;
  }

  push(chunk: Uint8Array, onLine: (line: Buffer) => void): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
      this.add(bytes.subarray(start, newline));
      this.emit(onLine);
      start = newline + 1;
    }
    if (start < bytes.length) this.add(Buffer.from(bytes.subarray(start)));
  }

  /** The last line, when the file does not end with a newline. */
  end(onLine: (line: Buffer) => void): void {
    if (this.pending > 0 || this.skipping) this.emit(onLine);
  }

  private add(part: Buffer): void {
    if (this.skipping) return;
    this.pending += part.length;
    if (this.pending > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  private emit(onLine: (line: Buffer) => void): void {
    const skipped = this.skipping;
    const line = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
    this.parts = [];
    this.pending = 0;
    this.skipping = false;
    if (!skipped) onLine(line);
  }
}
