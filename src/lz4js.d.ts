// lz4js ships no types; only the frame-level functions ctx uses are declared.
declare module "lz4js" {
  export function compress(source: Uint8Array, maxSize?: number): Uint8Array;
  export function decompress(source: Uint8Array, maxSize?: number): Uint8Array;
}
