// Fork commands and hostile session ids (issue #21, break 5): a transcript named `a;touch PWN2;#.jsonl` made ctx
// print `claude --resume a;touch PWN2;# --fork-session`. Every command ctx prints must, pasted into a shell, run
// `claude` with the session id as ONE argument (bound to `--resume`, so `--dangerously-skip-permissions.jsonl` is no
// flag) and run nothing else. Here each printed command is run by `sh` with
// `claude` replaced by a stub on PATH that records its arguments.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantText, userPrompt } from "../helpers/transcript-lines.ts";
import {
  chownTree,
  listTree,
  makeWorld,
  RUNNERS,
  runCtxIn,
  treeChanges,
  UNPRIVILEGED_ID,
  type World,
} from "./harness.ts";

const HOSTILE_IDS = ["a;touch PWN2;#", "$(touch PWN3)", "b`touch PWN4`\ntouch PWN5", "--dangerously-skip-permissions"];
const PWN = ["PWN", "PWN2", "PWN3", "PWN4", "PWN5", "PWN6"];

let world: World | undefined;
let stub: string;
beforeEach(() => {
  stub = mkdtempSync(join(tmpdir(), "ctx-claude-stub-"));
  // The stub `claude`: writes each argument NUL-terminated, one run per file.
  writeFileSync(
    join(stub, "claude"),
    `#!/bin/sh\nout="${stub}/run.$$"\n: > "$out"\nfor a in "$@"; do printf '%s\\0' "$a" >> "$out"; done\n`,
  );
  chmodSync(join(stub, "claude"), 0o755);
});
afterEach(() => {
  world?.cleanup();
  world = undefined;
  rmSync(stub, { recursive: true, force: true });
});

const CTX_OWN = ["home/.ctx"];

/** Runs `command` with sh in `cwd` and the stub first on PATH; returns the argv claude got. */
function runPrinted(command: string, cwd: string): string[] {
  rmSync(join(stub, "run"), { force: true });
  execFileSync("sh", ["-c", `${command}; for f in "${stub}"/run.*; do mv "$f" "${stub}/run"; done`], {
    cwd,
    env: { PATH: `${stub}:/usr/bin:/bin` },
    stdio: "ignore",
  });
  return readFileSync(join(stub, "run"), "utf8").split("\0").slice(0, -1);
}

function writeHostileSessions(w: World): string {
  const cwd = join(w.repo, "it's $(touch PWN6)");
  mkdirSync(cwd, { recursive: true });
  const folder = join(w.claudeDir, "projects", "-hostile");
  mkdirSync(folder, { recursive: true });
  for (const sessionId of HOSTILE_IDS) {
    const line = { sessionId, cwd };
    writeFileSync(
      join(folder, `${sessionId}.jsonl`),
      `${[userPrompt(line, "tune the zephyr gearbox"), assistantText(line, "msg_1", "the zephyr gearbox is tuned")].join("\n")}\n`,
    );
  }
  if (w.runner === "unprivileged") chownTree(w.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  return cwd;
}

function assertNoPwn(w: World, cwd: string): void {
  for (const dir of [w.base, w.repo, cwd, stub])
    for (const name of PWN) expect(existsSync(join(dir, name))).toBe(false);
}

describe.each(RUNNERS)("shell quoting, as the %s user", (runner) => {
  it("break 5: the fork commands of ctx search --json pass a hostile session id as one argument and run nothing else", async () => {
    world = makeWorld(runner, "quoting");
    const cwd = writeHostileSessions(world);
    expect((await runCtxIn(world, ["index", "--quiet"])).code).toBe(0);
    const before = listTree(world.base, CTX_OWN);
    const json = await runCtxIn(world, ["search", "zephyr gearbox", "--no-refresh", "--json", "--limit", "10"]);
    expect(json.code, json.stderr).toBe(0);
    const results = (
      JSON.parse(json.stdout) as {
        results: Array<{
          sessionId: string;
          forkCommand: string;
          forkAtCommand: string | null;
          inSessionCommand: string;
        }>;
      }
    ).results;
    expect(results.map((r) => r.sessionId).sort()).toEqual([...HOSTILE_IDS].sort());
    for (const result of results) {
      expect(() => execFileSync("sh", ["-n", "-c", result.forkCommand])).not.toThrow();
      // Not a UUID, so bound to --resume (Claude Code's --resume takes an optional value).
      expect(runPrinted(result.forkCommand, world.base)).toEqual([`--resume=${result.sessionId}`, "--fork-session"]);
      if (result.forkAtCommand !== null) {
        const argv = runPrinted(result.forkAtCommand, world.base);
        expect(argv.slice(0, 3)).toEqual([`--resume=${result.sessionId}`, "--fork-session", "--resume-session-at"]);
        expect(argv).toHaveLength(4);
      }
      // `/resume` is typed into Claude Code: a non-UUID id is never offered there.
      expect(result.inSessionCommand).not.toContain(result.sessionId);
    }
    assertNoPwn(world, cwd);
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });

  it("break 5: the fork lines of ctx search's human output run claude once per line and nothing else", async () => {
    world = makeWorld(runner, "quoting");
    const cwd = writeHostileSessions(world);
    expect((await runCtxIn(world, ["index", "--quiet"])).code).toBe(0);
    const before = listTree(world.base, CTX_OWN);
    const human = await runCtxIn(world, ["search", "zephyr gearbox", "--no-refresh", "--limit", "10"]);
    expect(human.code, human.stderr).toBe(0);
    const forkLines = human.stdout
      .split("\n")
      .filter((line) => line.startsWith("   fork: "))
      .map((line) => line.slice("   fork: ".length));
    expect(forkLines).toHaveLength(HOSTILE_IDS.length);
    const ids: string[] = [];
    for (const command of forkLines) {
      const argv = runPrinted(command, world.base);
      expect(argv).toHaveLength(2);
      expect(argv[0]).toMatch(/^--resume=/);
      expect(argv[1]).toBe("--fork-session");
      ids.push(argv[0]?.slice("--resume=".length) ?? "");
    }
    // Ids without a newline come through exactly; the one with a newline is shown (and passed) with `\n` visible.
    expect(ids.sort()).toEqual(
      ["$(touch PWN3)", "a;touch PWN2;#", "b`touch PWN4`\\ntouch PWN5", "--dangerously-skip-permissions"].sort(),
    );
    assertNoPwn(world, cwd);
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });

  it("ctx fork --print gives each hostile local session a command that runs claude with it as one argument", async () => {
    world = makeWorld(runner, "quoting");
    const cwd = writeHostileSessions(world);
    expect((await runCtxIn(world, ["index", "--quiet"])).code).toBe(0);
    const before = listTree(world.base, CTX_OWN);
    // Ids with a newline are refused as a name (control characters); the others fork.
    for (const sessionId of HOSTILE_IDS.filter((id) => !id.includes("\n"))) {
      const printed = await runCtxIn(world, ["fork", "--print", "--", sessionId]);
      expect(printed.code, printed.stderr).toBe(0);
      const command = printed.stdout.trimEnd();
      expect(command.split("\n")).toHaveLength(1);
      expect(runPrinted(command, world.base)).toEqual([`--resume=${sessionId}`, "--fork-session"]);
    }
    const refused = await runCtxIn(world, ["fork", "--print", "--", "b`touch PWN4`\ntouch PWN5"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe("");
    assertNoPwn(world, cwd);
    expect(treeChanges(before, listTree(world.base, CTX_OWN))).toEqual([]);
  });
});
