// A damaged state file is never overwritten and never half-used: it is renamed to
// `<name>.corrupt-<time>` (kept for inspection and recovery) so a fresh one can be written.
import { type FileHandle, open, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { type ValidatedBy, type Validator, validate } from "../../core/schema/validator.ts";
import { CtxError, isCtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "./atomic-write.ts";
import type { WriteCodec } from "./codecs.ts";
import { CONTAINER_MAGIC, encodeContainer, HEADER_BYTES } from "./container.ts";
import { type LockOptions, withLock } from "./lock.ts";
import { describeIssues } from "./schema-issues.ts";
import { readStateFile, type UpdateStateOptions, updateStateFile, verifyStateFile } from "./state-file.ts";

/**
 * Under the file's lock, moves `path` aside when it still fails to verify or to match `schema` (another
 * process may have replaced it meanwhile). Returns where it went, or null when it was sound or absent.
 */
export async function quarantineIfDamaged(path: string, schema: Validator<unknown>, now: Date): Promise<string | null> {
  const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
  return withLock(path, async () => {
    const check = await verifyStateFile(path);
    if (!check.ok && check.code === "NOT_FOUND") return null;
    const damaged =
      !check.ok ||
      (await readStateFile(path, schema).then(
        () => false,
        () => true,
      ));
    if (!damaged) return null;
    await rename(path, aside);
    return aside;
  });
}

/**
 * updateStateFile, except that a damaged file is first moved aside (the update then sees null). For files
 * whose loss is recoverable (bookkeeping, or a state that is re-captured whole from the transcript).
 */
export async function updateStateFileOrQuarantine<S extends Validator<unknown>>(
  path: string,
  schema: S,
  update: (current: ValidatedBy<S> | null) => ValidatedBy<S> | Promise<ValidatedBy<S>>,
  options: UpdateStateOptions & { now: Date },
): Promise<{ value: ValidatedBy<S>; movedAside: string | null }> {
  try {
    return { value: await updateStateFile(path, schema, update, options), movedAside: null };
  } catch (error) {
    if (!isCtxError(error) || error.code !== "STATE_CORRUPT") throw error;
    const movedAside = await quarantineIfDamaged(path, schema, options.now);
    return { value: await updateStateFile(path, schema, update, options), movedAside };
  }
}

/**
 * Replaces `path` with a value the caller validated and encoded (`encodeValidated`), under the file's lock,
 * when the new value supersedes the old one whole (a state re-captured from the transcript): the old file is
 * not read, only its header checked, and a file whose header or length is wrong is moved aside first (kept
 * for inspection, as quarantineIfDamaged does). Returns where a damaged file went, or null.
 */
export async function replaceStateFile(
  path: string,
  encoded: Uint8Array,
  options: LockOptions & { now: Date },
): Promise<{ movedAside: string | null }> {
  await ensurePrivateDir(dirname(path));
  return withLock(
    path,
    async () => {
      let movedAside: string | null = null;
      if (await headerLooksDamaged(path)) {
        movedAside = `${path}.corrupt-${options.now.toISOString().replace(/[:.]/g, "-")}`;
        await rename(path, movedAside);
      }
      await writeFileAtomic(path, encoded);
      return { movedAside };
    },
    options,
  );
}

/** Validates `value` against `schema` (INTERNAL on a mismatch: the value is ctx's own) and encodes it once. */
export function encodeValidated<S extends Validator<unknown>>(
  path: string,
  schema: S,
  value: ValidatedBy<S>,
  codec: WriteCodec,
  options: { trusted?: boolean } = {},
): { value: ValidatedBy<S>; bytes: Uint8Array } {
  // `trusted`: the value is ctx's own, built by its typed code this moment (a capture); re-validating a 10 MB
  // state costs a good part of the save budget (bench/run.ts store: saveState10MBValidated against saveState10MB)
  // and finds nothing the types do not. Reads always validate.
  if (options.trusted === true) return { value, bytes: encodeContainer(value, codec) };
  const checked = validate(schema, value);
  if (!checked.ok) {
    throw new CtxError("INTERNAL", `refusing to write ${path}: ${describeIssues(checked.issues, value)}`, {
      hint: "This is a bug in ctx; please report it with the message above.",
    });
  }
  return { value: checked.value as ValidatedBy<S>, bytes: encodeContainer(checked.value, codec) };
}

/** True when a file exists and its 48-byte header (magic, version, flags, lengths) disagrees with it. */
async function headerLooksDamaged(path: string): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, "r");
    const size = (await handle.stat()).size;
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES) return true;
    const magicOk = CONTAINER_MAGIC.every((byte, i) => header[i] === byte);
    const version = header.readUInt16LE(4);
    return !magicOk || version < 1 || header[7] !== 0 || header.readUInt32LE(12) !== size - HEADER_BYTES;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    return true;
  } finally {
    await handle?.close();
  }
}
