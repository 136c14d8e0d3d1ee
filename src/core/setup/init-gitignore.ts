// The `.gitignore` lines for ctx's per-project state: a marker comment and `.ctx/`. The marker lets
// `--remove` take out only the line ctx added, never a `.ctx/` line the person wrote.

export const GITIGNORE_MARKER = "# ctx: per-project context state (added by ctx init)";
export const GITIGNORE_LINE = ".ctx/";

/** Lines that already keep `.ctx/` out of git, written by anyone. */
const IGNORES_CTX = new Set([".ctx", ".ctx/", "/.ctx", "/.ctx/", ".ctx/*", "/.ctx/*", ".ctx/**", "/.ctx/**"]);

export function gitignoreIgnoresCtx(text: string): boolean {
  return text.split(/\r?\n/).some((line) => IGNORES_CTX.has(line.trim()));
}

export interface GitignoreEdit {
  /** null: the file should be deleted (ctx emptied it). */
  text: string | null;
  details: string[];
}

export function addCtxToGitignore(text: string | null): GitignoreEdit {
  if (text !== null && gitignoreIgnoresCtx(text)) return { text, details: [] };
  const eol = text?.includes("\r\n") ? "\r\n" : "\n";
  const block = `${GITIGNORE_MARKER}${eol}${GITIGNORE_LINE}${eol}`;
  if (text === null || text === "") return { text: block, details: [`+ ${GITIGNORE_LINE}`] };
  const separator = text.endsWith("\n") ? "" : eol;
  return { text: `${text}${separator}${block}`, details: [`+ ${GITIGNORE_LINE}`] };
}

/** Removes the marker and the `.ctx/` line right after it; a file left empty is deleted. */
export function removeCtxFromGitignore(text: string | null): GitignoreEdit {
  if (text === null) return { text, details: [] };
  const lines = text.split("\n");
  const at = lines.findIndex(
    (line, i) => line.replace(/\r$/, "") === GITIGNORE_MARKER && lines[i + 1]?.replace(/\r$/, "") === GITIGNORE_LINE,
  );
  if (at < 0) {
    const kept = gitignoreIgnoresCtx(text) ? [`! kept your own ${GITIGNORE_LINE} line (ctx did not add it)`] : [];
    return { text, details: kept };
  }
  lines.splice(at, 2);
  const rest = lines.join("\n");
  return { text: rest === "" ? null : rest, details: [`- ${GITIGNORE_LINE}`] };
}
