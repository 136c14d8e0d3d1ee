// lz4js's xxHash32 (no types shipped): codecs.ts checks LZ4 frame descriptor checksums with it.
declare module "lz4js/xxh32.js" {
  export function hash(seed: number, source: Uint8Array, start: number, length: number): number;
}
