// Another local user's `.ctx/` above the project (issue #31, section 5): a user who can write to a folder above
// yours (/tmp, a shared 0777 folder) makes `.ctx/` there, 0777, with a config of theirs. Safe outcome, as git's
// safe.directory: a `.ctx` (or `.git`) that belongs to neither you nor root is not your project's; ctx says so once on
// stderr and goes on as if that folder had none: their config is not applied and nothing is written into their
// folder. Needs root, which alone can make a folder owned by another uid; run as root and as the unprivileged user.
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantText, userPrompt } from "../helpers/transcript-lines.ts";
import { listTree, makeWorld, RUNNERS, runCtxIn, UNPRIVILEGED_ID, type World } from "./harness.ts";

/** The other local user: neither root nor the harness's unprivileged one. */
const OTHER_ID = 4_242;
const SESSION = "0b1c2d3e-0000-4000-8000-0000000000f1";
const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot).each(RUNNERS)("another user's .ctx above the project, as the %s user", (runner) => {
  let world: World;
  let shared: string;
  let foreignCtx: string;
  let project: string;
  beforeEach(() => {
    world = makeWorld(runner, "foreign-ctx");
    // Their folder, writable by all, holding their `.ctx/` and config; and the person's own folder below it.
    shared = join(world.base, "shared");
    foreignCtx = join(shared, ".ctx");
    project = join(shared, "mine");
    mkdirSync(foreignCtx, { recursive: true });
    writeFileSync(join(foreignCtx, "config.json"), '{"guard": {"warningPercent": 99}}\n');
    for (const path of [shared, foreignCtx, join(foreignCtx, "config.json")]) {
      chownSync(path, OTHER_ID, OTHER_ID);
      chmodSync(path, 0o777);
    }
    mkdirSync(project);
    if (runner === "unprivileged") chownSync(project, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  });
  afterEach(() => world.cleanup());

  const ignoredLines = (stderr: string) => stderr.split("\n").filter((line) => line.includes(`ignored ${foreignCtx}`));

  it("config get, status and doctor do not apply their config, write nothing there, and say so once", async () => {
    const before = listTree(shared, ["mine"]);
    const get = await runCtxIn(world, ["config", "get", "guard.warningPercent"], { cwd: project });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout.trim()).toBe("30");
    expect(ignoredLines(get.stderr)).toHaveLength(1);
    expect(get.stderr).toContain("another user's");

    const status = await runCtxIn(world, ["status", "--json"], { cwd: project });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toContain(foreignCtx);
    expect(ignoredLines(status.stderr)).toHaveLength(1);

    const doctor = await runCtxIn(world, ["doctor", "--json"], { cwd: project });
    const findings = (JSON.parse(doctor.stdout) as { findings: Array<{ id: string; message: string }> }).findings;
    expect(findings.find((finding) => finding.id === "foreign-project")?.message).toContain(foreignCtx);

    const save = await runCtxIn(world, ["checkpoint"], { cwd: project });
    expect(ignoredLines(save.stderr)).toHaveLength(1);
    expect(listTree(shared, ["mine"])).toEqual(before);
  });

  it("a hook run below it answers as usual, writes its state into the person's own folder, never theirs", async () => {
    const transcriptDir = join(world.claudeDir, "projects", "-mine");
    mkdirSync(transcriptDir, { recursive: true });
    const transcript = join(transcriptDir, `${SESSION}.jsonl`);
    const line = { sessionId: SESSION, cwd: project };
    writeFileSync(
      transcript,
      `${[userPrompt(line, "Refactor the parser."), assistantText(line, "a1", "Done. Next: tests.")].join("\n")}\n`,
    );
    if (runner === "unprivileged") chownSync(transcript, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
    const before = listTree(shared, ["mine"]);
    const input = { session_id: SESSION, transcript_path: transcript, cwd: project };
    const said: number[] = [];
    for (const [event, name, extra] of [
      ["session-start", "SessionStart", { source: "startup" }],
      ["pre-compact", "PreCompact", { trigger: "manual" }],
    ] as const) {
      const run = await runCtxIn(world, ["hook", event], {
        cwd: project,
        env: { CLAUDE_PROJECT_DIR: "" },
        stdin: JSON.stringify({ ...input, hook_event_name: name, ...extra }),
      });
      expect(run.code, `${event}: ${run.stderr}`).toBe(0);
      expect(run.stdout).not.toContain("ignored");
      said.push(ignoredLines(run.stderr).length);
    }
    expect(listTree(shared, ["mine"])).toEqual(before);
    // Said by the first hook; from then on the person's own `.ctx/` (made by it) is found first.
    expect(said).toEqual([1, 0]);
    expect(listTree(project).some((entry) => entry.includes(" .ctx/state.ctx "))).toBe(true);
  });

  it("its own folder's .ctx being theirs is refused, named, with nothing written", async () => {
    const before = listTree(shared, ["mine"]);
    for (const args of [["status"], ["init", "--project", shared], ["doctor", "--project", shared]]) {
      const run = await runCtxIn(world, args, { cwd: args.length === 1 ? shared : project });
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toContain(`${foreignCtx} belongs to another user (uid ${OTHER_ID})`);
    }
    const hook = await runCtxIn(world, ["hook", "session-start"], {
      cwd: shared,
      env: { CLAUDE_PROJECT_DIR: shared },
      stdin: JSON.stringify({ session_id: SESSION, cwd: shared, hook_event_name: "SessionStart", source: "startup" }),
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    expect(listTree(shared, ["mine"])).toEqual(before);
  });
});
