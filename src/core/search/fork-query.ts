// Reads the person's fork-detect filters: time bounds ("2026-10-01", "7d", "3w", "2m", "1y") and the project
// filter ("this" = the current project; a path = that folder's Claude Code project; else a folder name or part).

const DAY_MS = 86_400_000;
const UNIT_DAYS: Record<string, number> = { d: 1, w: 7, m: 30, y: 365 };

/**
 * Epoch ms for an ISO date/datetime or a relative age (`7d`, `3w`, `2m`, `1y`: that long before `now`);
 * null when the text is neither.
 */
export function parseTimeBound(text: string, now: number): number | null {
  const trimmed = text.trim().toLowerCase();
  const relative = /^(\d+)\s*([dwmy])$/.exec(trimmed);
  if (relative !== null) {
    const [, count, unit] = relative;
    return now - Number(count) * (UNIT_DAYS[unit ?? "d"] ?? 1) * DAY_MS;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return null;
  const parsed = Date.parse(trimmed);
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * Claude Code's folder name for a working directory: every non-alphanumeric character becomes `-`
 * (docs/claude-code-facts.md "Transcripts"); names over 200 characters are cut and suffixed with a hash we cannot
 * reproduce, so long paths match by prefix.
 */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/**
 * The project folder names a filter selects from those the index knows: "this"/"." = the current project,
 * a path = that folder's project, an exact folder name, else every folder whose name contains the text.
 */
export function selectProjects(filter: string, currentProjectRoot: string, known: readonly string[]): string[] {
  const wanted = filter.trim();
  if (wanted === "this" || wanted === ".") return matchFolder(projectFolderName(currentProjectRoot), known);
  if (wanted.startsWith("/") || wanted.startsWith("~")) return matchFolder(projectFolderName(wanted), known);
  if (known.includes(wanted)) return [wanted];
  const lower = wanted.toLowerCase();
  return known.filter((name) => name.toLowerCase().includes(lower));
}

function matchFolder(folder: string, known: readonly string[]): string[] {
  if (known.includes(folder)) return [folder];
  const prefix = folder.slice(0, 200);
  const long = known.filter((name) => folder.length > 200 && name.startsWith(prefix));
  return long.length > 0 ? long : [folder];
}
