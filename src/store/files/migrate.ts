// Container format versions and the migrations between them, applied on read: a file written by an
// older ctx is upgraded step by step (1 -> 2 -> ...) to the current version before anyone validates it.
import { CtxError, describeError } from "../../errors.ts";

export const CURRENT_FORMAT_VERSION = 1;

/** Upgrades a decoded payload from format version `from` to `from + 1`. */
export type PayloadMigration = (value: unknown) => unknown;

/**
 * Keyed by the version a step starts from. v1 is the first version, so the table is empty; a bump to v2
 * adds `1: (value) => upgradedValue`, raises CURRENT_FORMAT_VERSION and commits `tests/golden/v2-*.ctx`.
 * A step that changes the header layout also needs a branch in container.ts's header reader.
 */
export const PAYLOAD_MIGRATIONS: Readonly<Record<number, PayloadMigration>> = {};

export interface MigrationTable {
  currentVersion: number;
  migrations: Readonly<Record<number, PayloadMigration>>;
}

const DEFAULT_TABLE: MigrationTable = { currentVersion: CURRENT_FORMAT_VERSION, migrations: PAYLOAD_MIGRATIONS };

/** Throws unless this ctx can read a file of `version`: newer is STATE_UNSUPPORTED_VERSION, 0 is corrupt. */
export function checkFormatVersion(version: number, sourcePath: string, table: MigrationTable = DEFAULT_TABLE): void {
  if (version > table.currentVersion) {
    throw new CtxError(
      "STATE_UNSUPPORTED_VERSION",
      `${sourcePath}: written in format version ${version}, this ctx reads versions up to ${table.currentVersion}`,
      { hint: "A newer ctx wrote this file. Upgrade ctx (npm i -g claude-ctx@latest) to read it." },
    );
  }
  if (version < 1) {
    throw new CtxError(
      "STATE_CORRUPT",
      `${sourcePath}: format version ${version} does not exist (versions start at 1)`,
      {
        hint: "The header is damaged. Restore the file from a checkpoint or delete it.",
      },
    );
  }
}

/** Brings a payload decoded from a file of `fromVersion` up to the current version. */
export function migratePayload(
  value: unknown,
  fromVersion: number,
  sourcePath: string,
  table: MigrationTable = DEFAULT_TABLE,
): unknown {
  checkFormatVersion(fromVersion, sourcePath, table);
  let current = value;
  for (let version = fromVersion; version < table.currentVersion; version++) {
    const step = table.migrations[version];
    if (step === undefined) {
      throw new CtxError("INTERNAL", `no migration from format version ${version} to ${version + 1} (${sourcePath})`, {
        hint: "This ctx build is incomplete; reinstall ctx.",
      });
    }
    try {
      current = step(current);
    } catch (error) {
      throw new CtxError(
        "STATE_CORRUPT",
        `${sourcePath}: could not migrate from format version ${version} to ${version + 1}: ${describeError(error)}`,
        { hint: "Restore the file from a checkpoint or delete it.", cause: error },
      );
    }
  }
  return current;
}
