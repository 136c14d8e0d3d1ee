// The compact re-injection with CLAUDE.md rules and the context budget, through real hook processes:
// PreCompact renders it, SessionStart `compact` injects it, the rules verbatim and first.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import { addToBudget } from "../../src/store/budget/operations.ts";
import { assistantToolUse, type LineContext, toolResult, userPrompt } from "../helpers/transcript-lines.ts";
import { runCtx } from "./ctx-process.ts";

let project: string;
let transcript: string;
let env: NodeJS.ProcessEnv;
const session = "5b1f0c3d-0000-4000-8000-0000000ru1e5";

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-rules-e2e-"));
  project = join(base, "repo");
  const claudeDir = join(base, "claude-config");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "docs"));
  mkdirSync(claudeDir);
  writeFileSync(join(claudeDir, "CLAUDE.md"), "- Answer in British English. (ENFORCED)\n");
  writeFileSync(
    join(project, "CLAUDE.md"),
    "# Project\n\n- Run `pnpm check` before every commit. (CRITICAL)\n- Ordinary advice.\n\n@docs/db.md\n",
  );
  writeFileSync(join(project, "docs", "db.md"), "Never run migrations against\nthe production database. (ENFORCED)\n");
  transcript = join(base, `${session}.jsonl`);
  env = {
    CTX_HOME: join(base, "ctx-home"),
    HOME: join(base, "home"),
    CLAUDE_CONFIG_DIR: claudeDir,
    CLAUDE_PROJECT_DIR: "",
  };
  const ctx: LineContext = { sessionId: session, cwd: project };
  writeFileSync(
    transcript,
    `${[
      userPrompt(ctx, "Add retries to the client."),
      assistantToolUse(ctx, "toolu_todo", "TodoWrite", {
        todos: [{ content: "Write the retry helper", status: "in_progress", activeForm: "Writing the retry helper" }],
      }),
      toolResult(ctx, "toolu_todo", "Todos have been modified successfully."),
    ].join("\n")}\n`,
  );
});

const hook = (event: string, extra: Record<string, unknown>) =>
  runCtx(["hook", event], {
    cwd: project,
    env,
    stdin: JSON.stringify({
      session_id: session,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: event,
      ...extra,
    }),
  });

describe("compact re-injection with rules and budget (hook processes)", () => {
  it("injects the marked rules verbatim first, then the budget, then the saved state, under the limit", async () => {
    const config = defaultConfig();
    const deps = { projectRoot: project, caps: config.budget.caps, allowlist: [], now: () => new Date() };
    await addToBudget(deps, { compartment: "safety_constraints", text: "Staging only until Friday." });
    await addToBudget(deps, { compartment: "ambient_knowledge", text: "CI has two cores." });

    const pre = await hook("pre-compact", { trigger: "auto", custom_instructions: "" });
    expect(pre, pre.stderr).toMatchObject({ code: 0, stdout: "" });
    const start = await hook("session-start", { source: "compact" });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;

    expect(context.startsWith("## Rules from CLAUDE.md marked (ENFORCED) or (CRITICAL), verbatim\n")).toBe(true);
    expect(context).toContain("- Answer in British English. (ENFORCED)");
    expect(context).toContain("- Run `pnpm check` before every commit. (CRITICAL)");
    expect(context).toContain("Never run migrations against\nthe production database. (ENFORCED)");
    expect(context).not.toContain("Ordinary advice");
    const budgetAt = context.indexOf("## Context budget");
    expect(budgetAt).toBeGreaterThan(context.indexOf("production database"));
    expect(context).toContain("### Safety constraints\n- Staging only until Friday.");
    expect(context.indexOf("[~] Write the retry helper")).toBeGreaterThan(budgetAt);
    expect(context).toMatch(/\n\[ctx-restore:[^\]]+\]$/);
    expect(context.length).toBeLessThanOrEqual(config.hooks.maxInjectChars);
  });
});
