// The state-file API the rest of ctx uses: read, write and read-modify-write one container file whose
// value a zod schema (or a checker compiled from it: core/schema/validator.ts) validates, with atomic replacement, a private folder, and a cross-process lock
// around updates. Ordinary absence is null; anything damaged is STATE_CORRUPT naming the file.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type ValidatedBy, type Validator, validate } from "../../core/schema/validator.ts";
import { CtxError, isCtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "./atomic-write.ts";
import type { Codec, WriteCodec } from "./codecs.ts";
import { decodeContainer, encodeContainer } from "./container.ts";
import { type LockOptions, withLock } from "./lock.ts";
import { describeIssues } from "./schema-issues.ts";

export interface WriteStateOptions {
  codec: WriteCodec;
}

export interface UpdateStateOptions extends WriteStateOptions, LockOptions {}

export type VerifyResult =
  | { ok: true; formatVersion: number; codec: Codec; bytes: number }
  | { ok: false; problem: string; code: "NOT_FOUND" | "STATE_CORRUPT" | "STATE_UNSUPPORTED_VERSION" };

/** The file's value, or null when the file does not exist. */
export async function readStateFile<S extends Validator<unknown>>(
  path: string,
  schema: S,
): Promise<ValidatedBy<S> | null> {
  const bytes = await readIfPresent(path);
  if (bytes === null) return null;
  const { value } = decodeContainer(bytes, path);
  const checked = validate(schema, value);
  if (!checked.ok) {
    throw new CtxError("STATE_CORRUPT", `${path}: ${describeIssues(checked.issues, value)}`, {
      hint: "The file does not hold what this ctx expects. Restore it from a checkpoint or delete it.",
    });
  }
  return checked.value as ValidatedBy<S>;
}

/** Validates `value`, then replaces the file atomically (folder 0700, file 0600). Returns what was written. */
export async function writeStateFile<S extends Validator<unknown>>(
  path: string,
  schema: S,
  value: ValidatedBy<S>,
  options: WriteStateOptions,
): Promise<ValidatedBy<S>> {
  const checked = validate(schema, value);
  if (!checked.ok) {
    // The value comes from ctx itself, so a mismatch is a bug here, not damage on disk.
    throw new CtxError("INTERNAL", `refusing to write ${path}: ${describeIssues(checked.issues, value)}`, {
      hint: "This is a bug in ctx; please report it with the message above.",
    });
  }
  await ensurePrivateDir(dirname(path));
  await writeFileAtomic(path, encodeContainer(checked.value, options.codec));
  return checked.value as ValidatedBy<S>;
}

/**
 * Read-modify-write under the file's lock, so a hook process and the MCP server never lose each other's
 * update. `update` gets null when the file does not exist; a damaged file throws instead of being replaced.
 */
export async function updateStateFile<S extends Validator<unknown>>(
  path: string,
  schema: S,
  update: (current: ValidatedBy<S> | null) => ValidatedBy<S> | Promise<ValidatedBy<S>>,
  options: UpdateStateOptions,
): Promise<ValidatedBy<S>> {
  await ensurePrivateDir(dirname(path));
  return withLock(
    path,
    async () => {
      const current = await readStateFile(path, schema);
      return writeStateFile(path, schema, await update(current), options);
    },
    options,
  );
}

/** Checks that a file is a sound container (header, lengths, checksum, msgpack), without a schema. */
export async function verifyStateFile(path: string): Promise<VerifyResult> {
  const bytes = await readIfPresent(path);
  if (bytes === null) return { ok: false, problem: `${path} does not exist`, code: "NOT_FOUND" };
  try {
    const decoded = decodeContainer(bytes, path);
    return { ok: true, formatVersion: decoded.formatVersion, codec: decoded.codec, bytes: bytes.length };
  } catch (error) {
    if (isCtxError(error) && (error.code === "STATE_CORRUPT" || error.code === "STATE_UNSUPPORTED_VERSION")) {
      return { ok: false, problem: error.message, code: error.code };
    }
    throw error;
  }
}

async function readIfPresent(path: string): Promise<Uint8Array | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
