// node:sqlite, loaded without its ExperimentalWarning. Node 22 prints "ExperimentalWarning: SQLite is an experimental
// feature" on stderr the first time a process loads the module (Node 24 does not); ctx's commands and hooks print only
// their own lines, so the one load goes through here with that one warning held back (any other warning still
// prints). Everything that opens a database takes DatabaseSync from this module.
import { MIN_NODE } from "../../core/setup/node-minimum.ts";
import { CtxError } from "../../errors.ts";

type Sqlite = typeof import("node:sqlite");

function loadQuietly(): Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (text.startsWith("SQLite is an experimental feature")) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule("node:sqlite") as Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

export const { DatabaseSync } = loadQuietly();
export type DatabaseSync = InstanceType<Sqlite["DatabaseSync"]>;

let fts5: boolean | undefined;

/** Whether this Node's SQLite has FTS5, the full-text search the session index is built on (official Node >= 22.16). */
export function sqliteHasFts5(): boolean {
  if (fts5 === undefined) {
    const db = new DatabaseSync(":memory:");
    try {
      db.exec("CREATE VIRTUAL TABLE probe USING fts5(text)");
      fts5 = true;
    } catch {
      fts5 = false;
    } finally {
      db.close();
    }
  }
  return fts5;
}

/** SQLite's error for a missing FTS5, as ctx says it (never as a damaged index); null for any other error. */
export function fts5MissingError(error: unknown): CtxError | null {
  return error instanceof Error && /no such module: fts5/i.test(error.message) ? noFts5Error() : null;
}

/** The error for a Node whose SQLite lacks FTS5. */
export function noFts5Error(): CtxError {
  return new CtxError(
    "UNSUPPORTED_RUNTIME",
    `this Node's SQLite has no FTS5 full-text search, which the session index needs (Node ${process.versions.node}, ${process.execPath})`,
    { hint: `run ctx with an official Node ${MIN_NODE} or newer (https://nodejs.org, or \`nvm install 22\`)` },
  );
}
