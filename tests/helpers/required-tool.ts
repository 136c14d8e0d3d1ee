// A tool the suite needs that a machine may lack (zsh, fish, Chromium, PostgreSQL, Claude Code, lz4, zstd): .ci/run
// installs each. Missing under CI (`CI` set, as .ci/run sets it), the test fails naming the tool, so a CI run never
// shrinks silently; elsewhere the test is skipped and says why on stderr.

export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/** Null when the tool is here; else why the test is skipped (under CI, an error instead). */
export function missingTool(name: string, present: boolean, install: string): string | null {
  if (present) return null;
  const reason = `${name} is not installed (${install})`;
  if (isCi()) throw new Error(`${reason}: CI must have it, so this fails instead of skipping`);
  process.stderr.write(`skipped: ${reason}\n`);
  return reason;
}
