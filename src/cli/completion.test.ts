// `ctx completion bash|zsh|fish`: the scripts are snapshots (a change is a visible decision), and each is run by
// its real shell where installed (.ci/run installs zsh and fish) to complete subcommands, options and setting keys.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { missingTool } from "../../tests/helpers/required-tool.ts";
import { HOOK_EVENT_NAMES } from "../core/hooks/events.ts";

const dir = mkdtempSync(join(tmpdir(), "ctx-completion-"));
async function script(shell: string): Promise<string> {
  const run = await runCliCaptured(["completion", shell], { cwd: dir, env: {} });
  expect(run.code).toBe(0);
  const path = join(dir, `ctx.${shell}`);
  writeFileSync(path, run.stdout);
  return path;
}
const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;
const zshMissing = missingTool("zsh", has("zsh"), "apt-get install -y zsh");
const fishMissing = missingTool("fish", has("fish"), "apt-get install -y fish");
/** No start-up files: the user's own rc files must not change what is tested. */
const QUIET: Record<string, string[]> = { bash: ["--norc", "--noprofile"], zsh: ["-f"], fish: ["--no-config"] };
const run = (shell: string, code: string, ...args: string[]) => {
  const result = spawnSync(shell, [...(QUIET[shell] ?? []), "-c", code, "_", ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir },
  });
  expect(result.stderr).toBe("");
  return result.stdout
    .trim()
    .split("\n")
    .filter((line) => line !== "");
};

/** The script with the hook events' list (core/hooks/events.ts, whatever it holds) as `<hook events>`: a new event
 *  changes the table, not the snapshots. */
function withHookEventsNamed(script: string): string {
  const names: readonly string[] = HOOK_EVENT_NAMES;
  const lists = [names.join(" "), names.map((name) => `'${name}:'`).join(" ")];
  expect(lists.some((list) => script.includes(list))).toBe(true);
  return lists.reduce((text, list) => text.replaceAll(list, "<hook events>"), script);
}

describe("ctx completion", () => {
  it("prints a script per shell (snapshots) and refuses other shells", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const { stdout } = await runCliCaptured(["completion", shell], { cwd: dir, env: {} });
      expect(withHookEventsNamed(stdout)).toMatchSnapshot(shell);
    }
    const refused = await rejectedCtxError(runCliCaptured(["completion", "tcsh"], { cwd: dir, env: {} }));
    expect(refused.hint).toBe("one of bash, zsh, fish");
  });

  it("bash completes commands, subcommands, options after an option's value, and setting keys", async () => {
    const path = await script("bash");
    const complete = (...words: string[]) =>
      run(
        "bash",
        `source ${path}; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ctx; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ...words,
      );
    expect(complete("ctx", "co")).toEqual(["config", "completion", "context-stats"]);
    expect(complete("ctx", "config", "s")).toEqual(["set"]);
    expect(complete("ctx", "config", "set", "--project", "search.minS")).toEqual(["search.minSimilarity"]);
    expect(complete("ctx", "search", "--project", "x", "--li")).toEqual(["--limit"]);
    expect(complete("ctx", "search", "--project", "")).toEqual([]);
    expect(complete("ctx", "completion", "")).toEqual(["bash", "zsh", "fish"]);
  });

  it.skipIf(zshMissing !== null)("zsh walks the same path and offers described candidates", async () => {
    const path = await script("zsh");
    const complete = (...words: string[]) =>
      run(
        "zsh",
        `compdef(){}; _files(){ print FILES }; _describe(){ print -l -- \${(P)4} }; source ${path}; words=("$@"); CURRENT=$#; _ctx`,
        ...words,
      );
    expect(complete("ctx", "config", "set", "search.minS")).toContain("search.minSimilarity:");
    expect(complete("ctx", "snapshot", "p")).toContain("pin:keep a snapshot whatever the retention limits");
    expect(complete("ctx", "search", "--project", "")).toEqual(["FILES"]);
  });

  it.skipIf(fishMissing !== null)("fish completes with descriptions", async () => {
    const path = await script("fish");
    const complete = (line: string) => run("fish", `source ${path}; complete -C '${line}'`);
    expect(complete("ctx config s")).toEqual([expect.stringMatching(/^set\twrite one setting/)]);
    expect(complete("ctx config set search.minS")).toEqual(["search.minSimilarity"]);
    expect(complete("ctx search --project x --li")).toEqual(["--limit\thow many sessions (1-50)"]);
  });
});
