// The `.gitignore` lines ctx adds to a repository: a marker comment, then `.ctx/` (per-project state) and
// `.claude/settings.local.json` (the personal approval file `ctx init` writes). The marker lets `--remove` take out
// only the lines ctx added, never a line the person wrote; a line the file already covers is not added again.

export const GITIGNORE_MARKER = "# ctx: per-project context state (added by ctx init)";
export const GITIGNORE_LINE = ".ctx/";
export const LOCAL_SETTINGS_LINE = ".claude/settings.local.json";

/** Each line ctx adds, with the lines (written by anyone) that already keep that path out of git. */
const CTX_LINES: ReadonlyArray<{ line: string; coveredBy: ReadonlySet<string> }> = [
  {
    line: GITIGNORE_LINE,
    coveredBy: new Set([".ctx", ".ctx/", "/.ctx", "/.ctx/", ".ctx/*", "/.ctx/*", ".ctx/**", "/.ctx/**"]),
  },
  {
    line: LOCAL_SETTINGS_LINE,
    coveredBy: new Set([
      ".claude/settings.local.json",
      "/.claude/settings.local.json",
      "settings.local.json",
      "**/settings.local.json",
      "*.local.json",
      ".claude",
      ".claude/",
      "/.claude",
      "/.claude/",
      ".claude/*",
      "/.claude/*",
    ]),
  },
];
const ADDED_LINES = new Set(CTX_LINES.map((entry) => entry.line));

const lineSet = (text: string) => new Set(text.split(/\r?\n/).map((line) => line.trim()));

export function gitignoreIgnoresCtx(text: string): boolean {
  return ignores(text, GITIGNORE_LINE);
}

export function gitignoreIgnoresLocalSettings(text: string): boolean {
  return ignores(text, LOCAL_SETTINGS_LINE);
}

function ignores(text: string, line: string): boolean {
  const lines = lineSet(text);
  const entry = CTX_LINES.find((e) => e.line === line);
  return entry !== undefined && [...entry.coveredBy].some((covering) => lines.has(covering));
}

export interface GitignoreEdit {
  /** null: the file should be deleted (ctx emptied it). */
  text: string | null;
  details: string[];
}

export function addCtxToGitignore(text: string | null): GitignoreEdit {
  const missing = CTX_LINES.filter((entry) => text === null || !ignores(text, entry.line)).map((e) => e.line);
  if (missing.length === 0) return { text, details: [] };
  const eol = text?.includes("\r\n") ? "\r\n" : "\n";
  const details = missing.map((line) => `+ ${line}`);
  const lines = text === null || text === "" ? [] : text.split("\n");
  const at = markerIndex(lines);
  if (at >= 0) {
    // An earlier `ctx init` wrote the block: the new lines join it, so --remove finds them together.
    let end = at + 1;
    while (end < lines.length && ADDED_LINES.has((lines[end] ?? "").replace(/\r$/, ""))) end++;
    const cr = eol === "\r\n" ? "\r" : "";
    lines.splice(end, 0, ...missing.map((line) => `${line}${cr}`));
    return { text: lines.join("\n"), details };
  }
  const block = [GITIGNORE_MARKER, ...missing].map((line) => `${line}${eol}`).join("");
  if (text === null || text === "") return { text: block, details };
  const separator = text.endsWith("\n") ? "" : eol;
  return { text: `${text}${separator}${block}`, details };
}

function markerIndex(lines: readonly string[]): number {
  return lines.findIndex(
    (line, i) =>
      line.replace(/\r$/, "") === GITIGNORE_MARKER && ADDED_LINES.has((lines[i + 1] ?? "").replace(/\r$/, "")),
  );
}

/** Removes the marker and the ctx lines right after it; a file left empty is deleted. */
export function removeCtxFromGitignore(text: string | null): GitignoreEdit {
  if (text === null) return { text, details: [] };
  const lines = text.split("\n");
  const at = markerIndex(lines);
  if (at < 0) {
    const kept = gitignoreIgnoresCtx(text) ? [`! kept your own ${GITIGNORE_LINE} line (ctx did not add it)`] : [];
    return { text, details: kept };
  }
  let end = at + 1;
  while (end < lines.length && ADDED_LINES.has((lines[end] ?? "").replace(/\r$/, ""))) end++;
  const removed = lines.slice(at + 1, end).map((line) => `- ${line.replace(/\r$/, "")}`);
  lines.splice(at, end - at);
  const rest = lines.join("\n");
  return { text: rest === "" ? null : rest, details: removed };
}
