import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { RulesCheckReportSchema, RulesListReportSchema } from "./rules.ts";

const SPOTTER = FIXTURE.long;

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-rules-cli-"));
  root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, ".claude"));
  env = { HOME: join(base, "home"), CTX_HOME: join(base, "ctx-home"), CLAUDE_CONFIG_DIR: join(base, "claude") };
  writeFileSync(
    join(root, ".claude", "CLAUDE.md"),
    [
      "# Spotter",
      "- Run credo before closing a bead; it must be clean. (ENFORCED)",
      "- Claim a task with `bd update <id> --status in_progress` before starting it. (CRITICAL)",
      "- Never deploy on Fridays without the on-call engineer. (ENFORCED)",
      "@../rules/more.md",
    ].join("\n"),
  );
  mkdirSync(join(root, "rules"));
  writeFileSync(join(root, "rules", "more.md"), "```\n- fenced (ENFORCED)\n```\n@../.claude/CLAUDE.md\n");
  copyFileSync(SPOTTER, join(base, "spotter.jsonl"));
});

const run = (argv: string[]) => runCliCaptured(argv, { cwd: root, env });

describe("ctx rules", () => {
  it("list shows the marked rules with where they come from, following imports", async () => {
    const { code, stdout } = await run(["rules", "list", "--json"]);
    expect(code).toBe(0);
    const report = RulesListReportSchema.parse(JSON.parse(stdout));
    expect(report.rules.map((rule) => rule.line)).toEqual([2, 3, 4]);
    expect(report.files.map((file) => file.hops)).toEqual([0, 1]);
    expect(report.skipped).toEqual([
      { target: join(root, ".claude", "CLAUDE.md"), from: join(root, "rules", "more.md"), reason: "cycle" },
    ]);
    const human = await run(["rules", "list"]);
    expect(human.stdout).toContain(`3 rule(s) from 2 file(s):\n\n${join(root, ".claude", "CLAUDE.md")}:2`);
  });

  it("check compares with the real compaction summary of a transcript and exits 1 on a lost rule", async () => {
    const transcript = join(root, "..", "spotter.jsonl");
    const { code, stdout } = await run(["rules", "check", "--transcript", transcript, "--json"]);
    expect(code).toBe(1);
    const report = RulesCheckReportSchema.parse(JSON.parse(stdout));
    expect(report.checks.map((check) => check.fate)).toEqual(["paraphrased", "paraphrased", "lost"]);
    expect(report).toMatchObject({ lost: 1, threshold: 0.6, summarySource: transcript });
    const human = await run(["rules", "check", "--transcript", transcript]);
    expect(human.stdout).toMatch(/lost {8}\d+% {2}- Never deploy on Fridays/);
  });

  it("check reads a summary file, and says clearly when there is no summary or no session", async () => {
    writeFileSync(
      join(root, "summary.txt"),
      "Never deploy on Fridays without the on-call engineer. Run credo before closing a bead. Claim the task (update its status to in progress) before starting.",
    );
    const ok = await run(["rules", "check", "--summary-file", "summary.txt", "--json"]);
    expect(RulesCheckReportSchema.parse(JSON.parse(ok.stdout)).lost).toBe(0);
    expect(ok.code).toBe(0);

    await expect(run(["rules", "check"])).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "no session recorded in this project",
    });
    const short = FIXTURE.short;
    await expect(run(["rules", "check", "--transcript", short])).rejects.toMatchObject({
      code: "NOT_FOUND",
      hint: expect.stringContaining("not been compacted"),
    });
  });
});
