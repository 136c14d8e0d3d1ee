// Reads msgpack from a stream of chunks without holding it: small values (headers, strings, the meta) are
// taken into memory within a stated limit, and a `bin` of any size (a transcript's bytes) is handed on chunk by
// chunk. Enough msgpack for the archive container (store/archive/archive-container.ts), whose files may be
// gigabytes: one `bin` never becomes one buffer.

/** A problem with the bytes (cut short, a value over its limit, a type the layout does not allow). */
export class PullError extends Error {}

export class PullReader {
  private chunk: Uint8Array = new Uint8Array(0);
  private at = 0;
  private done = false;
  private captured: Uint8Array[] | null = null;
  private capturedBytes = 0;
  private captureLimit = 0;

  private readonly source: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterator<Uint8Array>) {
    this.source = source;
  }

  /** True when every byte has been read. */
  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }

  /** The next `n` bytes as one copy; for headers and small values only (callers bound `n`). */
  async take(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      if (!(await this.fill())) throw new PullError(`cut short: ${n - filled} more byte(s) expected`);
      const part = this.chunk.subarray(this.at, this.at + (n - filled));
      out.set(part, filled);
      filled += part.length;
      this.consume(part);
    }
    return out;
  }

  /** The next `n` bytes as the chunks they arrive in (views: use each before asking for the next). */
  async *stream(n: number): AsyncGenerator<Uint8Array> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill())) throw new PullError(`cut short: ${left} more byte(s) expected`);
      const part = this.chunk.subarray(this.at, this.at + left);
      left -= part.length;
      this.consume(part);
      yield part;
    }
  }

  async byte(): Promise<number> {
    return (await this.take(1))[0] ?? 0;
  }

  async uint(bytes: 1 | 2 | 4): Promise<number> {
    const raw = await this.take(bytes);
    const view = new DataView(raw.buffer);
    return bytes === 1 ? view.getUint8(0) : bytes === 2 ? view.getUint16(0) : view.getUint32(0);
  }

  /** A map's entry count. */
  async mapHeader(): Promise<number> {
    const type = await this.byte();
    if (type >= 0x80 && type <= 0x8f) return type & 0x0f;
    if (type === 0xde) return this.uint(2);
    if (type === 0xdf) return this.uint(4);
    throw new PullError(`expected a map, found type 0x${type.toString(16)}`);
  }

  /** An array's length. */
  async arrayHeader(): Promise<number> {
    const type = await this.byte();
    if (type >= 0x90 && type <= 0x9f) return type & 0x0f;
    if (type === 0xdc) return this.uint(2);
    if (type === 0xdd) return this.uint(4);
    throw new PullError(`expected an array, found type 0x${type.toString(16)}`);
  }

  /** A `bin`'s length (its bytes follow: read them with `stream`). */
  async binHeader(): Promise<number> {
    const type = await this.byte();
    if (type === 0xc4) return this.uint(1);
    if (type === 0xc5) return this.uint(2);
    if (type === 0xc6) return this.uint(4);
    throw new PullError(`expected binary data, found type 0x${type.toString(16)}`);
  }

  /** A string of at most `maxBytes` UTF-8 bytes. */
  async string(maxBytes: number): Promise<string> {
    const type = await this.byte();
    const length =
      type >= 0xa0 && type <= 0xbf
        ? type & 0x1f
        : type === 0xd9
          ? await this.uint(1)
          : type === 0xda
            ? await this.uint(2)
            : type === 0xdb
              ? await this.uint(4)
              : -1;
    if (length < 0) throw new PullError(`expected a string, found type 0x${type.toString(16)}`);
    if (length > maxBytes) throw new PullError(`a string of ${length} bytes, over the ${maxBytes} allowed here`);
    return new TextDecoder("utf-8", { fatal: true }).decode(await this.take(length));
  }

  /** The raw bytes of the next whole value (any type), at most `maxBytes` of them: decode them with msgpack. */
  async rawValue(maxBytes: number): Promise<Uint8Array> {
    this.captured = [];
    this.capturedBytes = 0;
    this.captureLimit = maxBytes;
    try {
      await this.skipValue(0);
      const out = new Uint8Array(this.capturedBytes);
      let at = 0;
      for (const part of this.captured) {
        out.set(part, at);
        at += part.length;
      }
      return out;
    } finally {
      this.captured = null;
    }
  }

  /** Walks one value by its headers, reading (and, while capturing, keeping) its bytes. */
  private async skipValue(depth: number): Promise<void> {
    if (depth > 64) throw new PullError("values nested more than 64 deep");
    const type = await this.byte();
    const fixed = FIXED_LENGTHS.get(type);
    if (fixed !== undefined) {
      await this.skip(fixed);
      return;
    }
    if (type <= 0x7f || type >= 0xe0 || type === 0xc0 || type === 0xc2 || type === 0xc3) return;
    if (type >= 0xa0 && type <= 0xbf) return this.skip(type & 0x1f);
    if (type >= 0x80 && type <= 0x8f) return this.skipItems((type & 0x0f) * 2, depth);
    if (type >= 0x90 && type <= 0x9f) return this.skipItems(type & 0x0f, depth);
    const sized = SIZED.get(type);
    if (sized === undefined) throw new PullError(`unknown msgpack type 0x${type.toString(16)}`);
    const count = await this.uint(sized.bytes);
    if (sized.kind === "bytes") return this.skip(count + sized.extra);
    return this.skipItems(sized.kind === "map" ? count * 2 : count, depth);
  }

  private async skipItems(count: number, depth: number): Promise<void> {
    for (let i = 0; i < count; i++) await this.skipValue(depth + 1);
  }

  private async skip(n: number): Promise<void> {
    for await (const _ of this.stream(n)) {
      // read and, while capturing, kept by consume
    }
  }

  private consume(part: Uint8Array): void {
    this.at += part.length;
    if (this.captured === null) return;
    this.capturedBytes += part.length;
    if (this.capturedBytes > this.captureLimit) {
      throw new PullError(`a value over the ${this.captureLimit} bytes allowed here`);
    }
    this.captured.push(part.slice());
  }

  private async fill(): Promise<boolean> {
    while (this.at >= this.chunk.length) {
      if (this.done) return false;
      const next = await this.source.next();
      if (next.done === true) {
        this.done = true;
        return false;
      }
      this.chunk = next.value;
      this.at = 0;
    }
    return true;
  }
}

/** Types whose payload has a fixed length after the type byte. */
const FIXED_LENGTHS = new Map<number, number>([
  [0xca, 4],
  [0xcb, 8],
  [0xcc, 1],
  [0xcd, 2],
  [0xce, 4],
  [0xcf, 8],
  [0xd0, 1],
  [0xd1, 2],
  [0xd2, 4],
  [0xd3, 8],
  [0xd4, 2],
  [0xd5, 3],
  [0xd6, 5],
  [0xd7, 9],
  [0xd8, 17],
]);

/** Types whose length follows the type byte: bytes (str, bin, ext: ext adds its type byte), or items. */
const SIZED = new Map<number, { bytes: 1 | 2 | 4; kind: "bytes" | "array" | "map"; extra: number }>([
  [0xc4, { bytes: 1, kind: "bytes", extra: 0 }],
  [0xc5, { bytes: 2, kind: "bytes", extra: 0 }],
  [0xc6, { bytes: 4, kind: "bytes", extra: 0 }],
  [0xc7, { bytes: 1, kind: "bytes", extra: 1 }],
  [0xc8, { bytes: 2, kind: "bytes", extra: 1 }],
  [0xc9, { bytes: 4, kind: "bytes", extra: 1 }],
  [0xd9, { bytes: 1, kind: "bytes", extra: 0 }],
  [0xda, { bytes: 2, kind: "bytes", extra: 0 }],
  [0xdb, { bytes: 4, kind: "bytes", extra: 0 }],
  [0xdc, { bytes: 2, kind: "array", extra: 0 }],
  [0xdd, { bytes: 4, kind: "array", extra: 0 }],
  [0xde, { bytes: 2, kind: "map", extra: 0 }],
  [0xdf, { bytes: 4, kind: "map", extra: 0 }],
]);
