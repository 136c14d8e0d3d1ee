// A transcript from another machine (a teammate's, for `ctx fork`) made this machine's: every `cwd` field that lies
// in the author's checkout of the project is moved to this machine's checkout, keeping the part inside the
// repository (a monorepo's package folder, or a folder the session `cd`'d into). Lines without such a field keep
// their bytes; a line that does not parse is kept as it is (Claude Code skips it the same way on both machines). A
// line nested deeper than MAX_JSON_DEPTH is refused with a CtxError: the walk below and JSON.stringify recurse
// (JSON.parse does not), and Claude Code writes nothing that deep, so such a line is a teammate's or a server's doing,
// not a session's.

import { CtxError } from "../../errors.ts";

/** Objects and arrays inside one another on one transcript line: Claude Code's lines nest a few dozen deep at most. */
export const MAX_JSON_DEPTH = 1_000;

export interface CwdRewrite {
  /** The author's checkout root, as the transcript records it. */
  from: string;
  /** This machine's checkout root. */
  to: string;
}

export interface RewrittenTranscript {
  text: string;
  /** How many `cwd` fields were moved. */
  rewritten: number;
  /** The first `cwd`, rewritten: the folder Claude Code resumes the session in (its project folder). */
  firstCwd: string | null;
}

/** The first `cwd` a transcript records (its envelope carries one on most lines), or null. */
export function firstTranscriptCwd(text: string): string | null {
  for (const line of text.split("\n")) {
    if (!line.includes('"cwd"')) continue;
    const cwd = cwdOfLine(line);
    if (cwd !== null) return cwd;
  }
  return null;
}

function cwdOfLine(line: string): string | null {
  try {
    const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
    return typeof cwd === "string" && cwd !== "" ? cwd : null;
  } catch {
    return null;
  }
}

/**
 * The author's checkout root, from the session's first `cwd` and the project's folder inside the repository
 * (`repoPath`, '' at its root): `/home/al/app/packages/web` with `packages/web` is `/home/al/app`. A cwd that does
 * not end with `repoPath` is taken as the project folder itself.
 */
export function authorCheckoutRoot(firstCwd: string, repoPath: string): { root: string; inside: string } {
  const cwd = trimSlashes(firstCwd);
  if (repoPath === "") return { root: cwd, inside: "" };
  const suffix = `/${repoPath}`;
  if (cwd.endsWith(suffix) && cwd.length > suffix.length) return { root: cwd.slice(0, -suffix.length), inside: "" };
  return { root: cwd, inside: repoPath };
}

/** Every `cwd` string at or under `rewrite.from`, on any line and at any depth, moved under `rewrite.to`. */
export function rewriteTranscriptCwd(text: string, rewrite: CwdRewrite): RewrittenTranscript {
  let rewritten = 0;
  let firstCwd: string | null = null;
  const lines = text.split("\n").map((line, index) => {
    const moved = rewriteTranscriptLine(line, rewrite, index + 1);
    rewritten += moved.rewritten;
    if (firstCwd === null && line.includes('"cwd"')) firstCwd = cwdOfLine(moved.line);
    return moved.line;
  });
  return { text: lines.join("\n"), rewritten, firstCwd };
}

/**
 * One line (without its newline) with its `cwd` fields under `rewrite.from` moved under `rewrite.to`; the line's own
 * text when none moved or it does not parse. `lineNumber` names the line in the too-deep error. A stream of lines
 * (an imported bundle's transcript) is rewritten one at a time with it, as rewriteTranscriptCwd does a whole text.
 */
export function rewriteTranscriptLine(
  line: string,
  rewrite: CwdRewrite,
  lineNumber: number,
): { line: string; rewritten: number } {
  if (!line.includes('"cwd"')) return { line, rewritten: 0 };
  const from = trimSlashes(rewrite.from);
  const to = trimSlashes(rewrite.to);
  let rewritten = 0;
  const move = (cwd: string): string | null => {
    if (cwd === from) return to;
    if (cwd.startsWith(`${from}/`)) return `${to}${cwd.slice(from.length)}`;
    return null;
  };
  const visit = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (depth >= MAX_JSON_DEPTH) throw tooDeep(lineNumber);
    if (Array.isArray(value)) return value.map((item) => visit(item, depth + 1));
    // No prototype: a `__proto__` key (JSON.parse makes it a plain field) stays a field, as in the line.
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, field] of Object.entries(value)) {
      const moved = key === "cwd" && typeof field === "string" ? move(field) : null;
      if (moved !== null) rewritten += 1;
      out[key] = moved ?? visit(field, depth + 1);
    }
    return out;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { line, rewritten: 0 };
  }
  const after = visit(parsed, 0);
  return rewritten === 0 ? { line, rewritten } : { line: JSON.stringify(after), rewritten };
}

function tooDeep(line: number): CtxError {
  return new CtxError(
    "STATE_CORRUPT",
    `line ${line} of the transcript nests objects and arrays more than ${MAX_JSON_DEPTH} deep, which Claude Code never writes`,
    { hint: "nothing was written; this transcript was not written by Claude Code as it is: ask its author" },
  );
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
