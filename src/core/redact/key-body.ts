// Private key bodies pasted without their BEGIN/END lines: a base64 blob is a key when its decoded bytes have a
// private key's structure (PKCS#8, encrypted PKCS#8, PKCS#1 RSA or DSA, SEC1 EC) or start with the OpenSSH magic.
// Certificates, public keys, CSRs and other DER differ in their first elements and are left alone (they are public).
// Called by encoded.ts for each base64 blob it finds; the shape alone (`MII…` lines of 64) is never enough.

export const PRIVATE_KEY_KIND = "private-key";

/** base64 of `openssh-key-v1\0`, the first bytes of every OpenSSH private key (encrypted or not). */
const OPENSSH_MAGIC = "b3BlbnNzaC1rZXktdjEA";
/**
 * Shorter blobs are not keys: the smallest key (Ed25519 in PKCS#8) is 64 characters, and an OpenSSH key's first 128
 * characters hold its cipher, KDF and public key, not its private part. The bare magic in prose stays readable.
 */
const MIN_DER_CHARS = 64;
const MIN_OPENSSH_CHARS = 128;
/** 192 decoded bytes: the outer header, the version and an algorithm identifier (RSA-PSS's is the longest, ~70). */
const HEADER_CHARS = 256;
/** How far a PKCS#8 key's algorithm parameters may push the key itself (DSA 3072: about 1,200 bytes). */
const MAX_HEADER_BYTES = 4096;
const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;
const OID = 0x06;
/** 1.2.840.113549.1.5 (PKCS#5: PBES2, PBES1) and 1.2.840.113549.1.12.1 (PKCS#12 PBE): encrypted PKCS#8 keys. */
const PASSWORD_BASED_ENCRYPTION = ["\x2a\x86\x48\x86\xf7\x0d\x01\x05", "\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01"];

interface Element {
  tag: number;
  /** Offsets of the contents in the decoded bytes; `end` may lie past what was decoded. */
  start: number;
  end: number;
}

export interface KeyBody {
  /** Base64 characters (without separators or padding) the key occupies, when its header says; else undefined. */
  chars?: number;
}

/** Whether a standard base64 blob (line breaks removed) is a private key body, and how long it says it is. */
export function readPrivateKeyBody(base64: string): KeyBody | null {
  if (base64.startsWith(OPENSSH_MAGIC)) return base64.length >= MIN_OPENSSH_CHARS ? {} : null;
  // `M`: the blob starts with a SEQUENCE (0x30).
  if (base64.charCodeAt(0) !== 77 || base64.length < MIN_DER_CHARS) return null;
  let bytes = decodePrefix(base64, HEADER_CHARS);
  const outer = bytes === null ? null : readElement(bytes, 0);
  if (bytes === null || outer === null || outer.tag !== SEQUENCE) return null;
  let verdict = judgeContents(bytes, outer);
  if (typeof verdict === "number" && verdict <= MAX_HEADER_BYTES) {
    bytes = decodePrefix(base64, Math.ceil(verdict / 3) * 4);
    verdict = bytes === null ? false : judgeContents(bytes, outer);
  }
  return verdict === true ? { chars: Math.ceil((outer.end * 4) / 3) } : null;
}

/**
 * Whether the outer SEQUENCE's contents are a private key's; a number when that needs more decoded bytes than there
 * are (a DSA key's algorithm identifier carries its 500-byte parameters before the key).
 */
function judgeContents(bytes: string, outer: Element): boolean | number {
  const first = readElement(bytes, outer.start);
  if (first === null) return false;
  const second = readElement(bytes, first.end);
  if (second === null) return false;
  if (first.tag === SEQUENCE) {
    // EncryptedPrivateKeyInfo: SEQUENCE { AlgorithmIdentifier (a password-based scheme), OCTET STRING }. A
    // certificate's or a CSR's first element is a SEQUENCE too, but starts with a version or serial, not an OID.
    const algorithm = readElement(bytes, first.start);
    if (algorithm === null || algorithm.tag !== OID) return false;
    const oid = bytes.slice(algorithm.start, algorithm.end);
    return second.tag === OCTET_STRING && PASSWORD_BASED_ENCRYPTION.some((prefix) => oid.startsWith(prefix));
  }
  if (first.tag !== INTEGER || first.end - first.start !== 1) return false;
  const version = bytes.charCodeAt(first.start);
  // PKCS#1 RSAPrivateKey / DSA: version 0, then the modulus (or p): 64 bytes or more.
  if (version === 0 && second.tag === INTEGER) return second.end - second.start >= 64;
  // PKCS#8 PrivateKeyInfo (v0) or OneAsymmetricKey (v1): version, AlgorithmIdentifier { OID, … }, OCTET STRING.
  if ((version === 0 || version === 1) && second.tag === SEQUENCE) {
    const algorithm = readElement(bytes, second.start);
    if (algorithm === null || algorithm.tag !== OID) return false;
    const key = readElement(bytes, second.end);
    return key === null ? second.end + 2 : key.tag === OCTET_STRING;
  }
  // SEC1 ECPrivateKey: version 1, then the private scalar (32 bytes for P-256, 66 for P-521).
  if (version === 1 && second.tag === OCTET_STRING) {
    const size = second.end - second.start;
    return size >= 16 && size <= 80;
  }
  return false;
}

/** The first `chars` characters decoded (cut to whole groups of 4), or null when they are not base64. */
function decodePrefix(base64: string, chars: number): string | null {
  const head = base64.slice(0, chars);
  try {
    return atob(head.slice(0, head.length - (head.length % 4)));
  } catch {
    return null;
  }
}

/** A DER tag and length at `at` (definite lengths up to 3 bytes: 16 MB), or null past the decoded bytes. */
function readElement(bytes: string, at: number): Element | null {
  if (at + 2 > bytes.length) return null;
  const tag = bytes.charCodeAt(at);
  let length = bytes.charCodeAt(at + 1);
  let start = at + 2;
  if (length >= 0x80) {
    const count = length - 0x80;
    if (count === 0 || count > 3 || start + count > bytes.length) return null;
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + bytes.charCodeAt(start + i);
    start += count;
  }
  return { tag, start, end: start + length };
}
