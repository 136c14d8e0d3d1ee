// The one error type ctx throws on purpose: a stable string code, a message, and a hint for the person.
// Each edge (CLI, MCP, hooks) translates it once; see ARCHITECTURE.md "Conventions".

export type CtxErrorCode =
  | "CONFIG_INVALID"
  | "STATE_CORRUPT"
  | "STATE_UNSUPPORTED_VERSION"
  | "LOCK_TIMEOUT"
  | "STORAGE_LIMIT"
  | "HOOK_INPUT_INVALID"
  | "HOOK_UNKNOWN_EVENT"
  | "HOOK_TIMEOUT"
  | "INIT_CONFLICT"
  | "NOT_FOUND"
  | "EMBEDDER_UNAVAILABLE"
  | "EMBEDDER_FAILED"
  | "PROVIDER_UNAVAILABLE"
  | "PROVIDER_FAILED"
  | "USAGE"
  | "INDEX_CORRUPT"
  | "UNSAFE_PATH"
  /** A file ctx would write is there with other content, or changed under it (e.g. `ctx archive restore`). */
  | "CONFLICT"
  /** The team server (PostgreSQL) could not be reached or refused the login (src/team/). */
  | "TEAM_UNREACHABLE"
  /** The team server answered, but its schema, the team or the member's rights are not what ctx needs. */
  | "TEAM_REFUSED"
  /** This Node cannot run what was asked (its SQLite has no FTS5: a Node older than ctx's minimum, or a custom build). */
  | "UNSUPPORTED_RUNTIME"
  | "INTERNAL";

export class CtxError extends Error {
  readonly code: CtxErrorCode;
  readonly hint: string | undefined;

  constructor(code: CtxErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CtxError";
    this.code = code;
    this.hint = options.hint;
  }
}

/** By class or by its fields: the lean hook entry's rare paths throw the program build's copy of the class
 *  (src/hooks/runtime/rare-paths.ts), which `instanceof` would not recognise. */
export function isCtxError(error: unknown): error is CtxError {
  return (
    error instanceof CtxError ||
    (error instanceof Error && error.name === "CtxError" && typeof (error as { code?: unknown }).code === "string")
  );
}

/** A one-line description of any thrown value, for logs and error results. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** What the operating system (or SQLite) said, in words a person can act on. */
const SYSTEM_HINTS: Record<string, string> = {
  ENOSPC: "the disk is full: free some space (`ctx snapshot prune` and `ctx doctor` show what ctx keeps)",
  EDQUOT: "the disk quota is used up: free some space, or point CTX_HOME at a folder with room",
  EROFS: "that file system is read-only: point CTX_HOME (or run ctx) where it can write",
  EACCES: "ctx may not write there: check the folder's owner and mode (`ctx doctor`), or point CTX_HOME elsewhere",
  EPERM: "the operating system refused: check the folder's owner and mode (`ctx doctor`)",
  EMFILE: "too many open files: close other programs or raise the limit (`ulimit -n`)",
  ENAMETOOLONG: "a path is too long for this file system",
  EIO: "the disk reported an I/O error: check it before trusting what is on it",
};

/** SQLite's primary result codes a person can act on (node:sqlite sets `errcode`). */
const SQLITE_HINTS: Record<number, string> = {
  8: "the session index is read-only here: check CTX_HOME's owner and mode (`ctx doctor`)",
  11: "the session index is damaged: run `ctx reindex`",
  13: "the disk is full: free some space, then run `ctx index` again",
  26: "the session index is not a SQLite database: run `ctx reindex`",
};

/**
 * A CtxError for a file-system or SQLite failure a person can fix (a full or read-only disk, permissions, a
 * damaged index), so it prints as `ctx: … hint: …` instead of a stack; null for anything else (a bug).
 */
export function explainSystemError(error: unknown): CtxError | null {
  if (error instanceof CtxError || !(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  const systemHint = typeof code === "string" ? SYSTEM_HINTS[code] : undefined;
  if (systemHint !== undefined) return new CtxError("INTERNAL", error.message, { hint: systemHint, cause: error });
  const errcode = (error as { errcode?: number }).errcode;
  const primary = typeof errcode === "number" ? errcode & 0xff : -1;
  const sqliteHint = SQLITE_HINTS[primary];
  if (sqliteHint !== undefined) {
    return new CtxError(primary === 8 || primary === 13 ? "INTERNAL" : "INDEX_CORRUPT", error.message, {
      hint: sqliteHint,
      cause: error,
    });
  }
  return null;
}
