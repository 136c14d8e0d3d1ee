// The one error type ctx throws on purpose: a stable string code, a message, and a hint for the person.
// Each edge (CLI, MCP, hooks) translates it once; see STYLE.md "Errors".

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
  /** A file ctx would write is there with other content, or changed under it (e.g. `ctx archive restore`). */
  | "CONFLICT"
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

export function isCtxError(error: unknown): error is CtxError {
  return error instanceof CtxError;
}

/** A one-line description of any thrown value, for logs and error results. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
