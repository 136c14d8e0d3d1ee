// Formatting of command results for people and for scripts (`--json`). The only module besides the
// logger allowed to think about the console.

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Aligned "label  value" lines for human output. */
export function formatRows(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join("");
}
