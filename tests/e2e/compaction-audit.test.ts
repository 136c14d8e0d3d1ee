// The compaction-loss audit through real hook processes: PreCompact saves (and audits nothing), Claude Code's
// summary lands in the transcript (or arrives by PostCompact), SessionStart `compact` audits it, stores the
// record beside the snapshot and leads the re-injection with exactly what the summary lost; `ctx audit` and
// `ctx status` report it.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import {
  assistantToolUse,
  compactBoundary,
  compactSummary,
  type LineContext,
  toolResult,
  userPrompt,
} from "../helpers/transcript-lines.ts";
import { runCtx } from "./ctx-process.ts";

let project: string;
let transcript: string;
let env: NodeJS.ProcessEnv;
let line: LineContext;
const session = "7c2d1e4f-0000-4000-8000-00000000a0d1";

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-audit-e2e-"));
  project = join(base, "repo");
  const claudeDir = join(base, "claude-config");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(claudeDir);
  writeFileSync(
    join(project, "CLAUDE.md"),
    "# Project\n\n- Run `pnpm check` before every commit. (CRITICAL)\n- Never deploy on Fridays. (ENFORCED)\n",
  );
  transcript = join(base, `${session}.jsonl`);
  env = { CTX_HOME: join(base, "ctx-home"), HOME: join(base, "home"), CLAUDE_CONFIG_DIR: claudeDir };
  line = { sessionId: session, cwd: project };
  writeFileSync(
    transcript,
    `${[
      userPrompt(line, "Add retries to the HTTP client."),
      assistantToolUse(line, "toolu_todo", "TodoWrite", {
        todos: [
          { content: "Write the retry helper", status: "in_progress", activeForm: "Writing the retry helper" },
          { content: "Document the backoff constants", status: "pending", activeForm: "Documenting" },
        ],
      }),
      toolResult(line, "toolu_todo", "Todos have been modified successfully."),
    ].join("\n")}\n`,
  );
});

/** The line as Claude Code writes it after this compaction: stamped now, after PreCompact's save. */
const stampedNow = (text: string) => JSON.stringify({ ...JSON.parse(text), timestamp: new Date().toISOString() });

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

// Keeps the first task, the request and the pnpm rule; drops "Document the backoff constants" and the Friday rule.
const SUMMARY = [
  "1. Primary request: add retries to the HTTP client.",
  "2. Pending tasks: write the retry helper (in progress).",
  "3. The project requires running `pnpm check` before every commit.",
].join("\n");

describe("compaction-loss audit (hook processes)", () => {
  it("reports exactly the dropped task and rule as lost and re-injects them first", async () => {
    const pre = await hook("pre-compact", { trigger: "manual", custom_instructions: "" });
    expect(pre, pre.stderr).toMatchObject({ code: 0, stdout: "" });
    const snapshots = join(project, ".ctx", "snapshots");
    // PreCompact audits nothing: the summary does not exist yet.
    expect(readdirSync(snapshots).filter((name) => name.endsWith(".audit.json"))).toEqual([]);

    appendFileSync(
      transcript,
      `${stampedNow(compactBoundary(line, 150_000))}\n${stampedNow(compactSummary(line, SUMMARY))}\n`,
    );
    const start = await hook("session-start", { source: "compact" });
    expect(start.code, start.stderr).toBe(0);
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    const lead = context.split("\n\n")[0] ?? "";
    expect(lead).toMatch(/^## What the compaction summary lost \(2 of \d+ items ctx saved; ctx audit\)\n/);
    expect(lead.split("\n").slice(1)).toEqual([
      "- open task: Document the backoff constants",
      "- rule: - Never deploy on Fridays. (ENFORCED)",
    ]);
    expect(context.length).toBeLessThanOrEqual(defaultConfig().hooks.maxInjectChars);
    expect(context).toMatch(/\n\[ctx-restore:[^\]]+\]$/);
    // Re-rendered with the state loaded: the conversation part is assembled from summaries.
    expect(context).toContain("## Conversation since the last compaction (assembled: ");
    expect(context).toContain("[user] Add retries to the HTTP client.");

    const audit = await runCtx(["audit", "--json"], { cwd: project, env });
    expect(audit.code, audit.stderr).toBe(0);
    const report = JSON.parse(audit.stdout) as { compactions: Record<string, unknown>[] };
    expect(report.compactions).toHaveLength(1);
    expect(report.compactions[0]).toMatchObject({
      sessionId: session,
      lost: 2,
      lostItems: [
        { kind: "task", text: "Document the backoff constants" },
        { kind: "rule", text: "- Never deploy on Fridays. (ENFORCED)" },
      ],
    });
    expect(Object.keys(report.compactions[0] ?? {})).toEqual([
      "sessionId",
      "snapshotId",
      "at",
      "kept",
      "paraphrased",
      "lost",
      "lostItems",
    ]);
    const status = await runCtx(["status", "--json"], { cwd: project, env });
    expect(JSON.parse(status.stdout).lastAudit).toEqual(report.compactions[0]);
    expect((await runCtx(["status"], { cwd: project, env })).stdout).toContain(
      "lost rule: - Never deploy on Fridays. (ENFORCED)",
    );
  });

  it("audits from PostCompact's compact_summary, which SessionStart then uses", async () => {
    expect((await hook("pre-compact", { trigger: "auto", custom_instructions: "" })).code).toBe(0);
    const post = await hook("post-compact", {
      trigger: "auto",
      compact_summary: `${SUMMARY}\nAlso: document the backoff constants. Never deploy on Fridays.`,
    });
    expect(post).toMatchObject({ code: 0, stdout: "" });
    const files = readdirSync(join(project, ".ctx", "snapshots")).filter((name) => name.endsWith(".audit.json"));
    expect(files).toHaveLength(1);
    // No summary entry in the transcript: the record PostCompact stored is the one used.
    const start = await hook("session-start", { source: "compact" });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).not.toContain("What the compaction summary lost");
    const report = JSON.parse((await runCtx(["audit", "--json", "--session", session], { cwd: project, env })).stdout);
    expect(report.compactions[0]).toMatchObject({ lost: 0, lostItems: [] });
  });

  it("in Claude Code 2.1.330's order (SessionStart, then PostCompact) the first prompt brings the lost items", async () => {
    // An earlier compaction's summary (which kept nothing) is in the transcript: it is not this one's.
    const earlier = `${compactBoundary(line, 1)}\n${compactSummary(line, "Nothing relevant.")}\n`;
    writeFileSync(transcript, `${earlier}${readFileSync(transcript, "utf8")}`);
    expect((await hook("pre-compact", { trigger: "auto", custom_instructions: "" })).code).toBe(0);
    const start = await hook("session-start", { source: "compact" });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).not.toContain("What the compaction summary lost");
    expect((await hook("post-compact", { trigger: "auto", compact_summary: SUMMARY })).code).toBe(0);
    appendFileSync(
      transcript,
      `${stampedNow(compactBoundary(line, 150_000))}\n${stampedNow(compactSummary(line, SUMMARY))}\n`,
    );
    // SessionStart's text reached the transcript (Claude Code writes it as an attachment).
    const token = /\[(ctx-restore:[^\]]+)\]$/.exec(context)?.[1] ?? "";
    appendFileSync(transcript, `${JSON.stringify({ type: "attachment", content: token })}\n`);
    const prompt = await hook("user-prompt-submit", { prompt: "go on" });
    const extra = (JSON.parse(prompt.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(extra.split("\n").slice(1, 3)).toEqual([
      "- open task: Document the backoff constants",
      "- rule: - Never deploy on Fridays. (ENFORCED)",
    ]);
    // Once: the next prompt brings nothing.
    expect((await hook("user-prompt-submit", { prompt: "and then?" })).stdout).toBe("");
  });

  it("refuses a malformed session id and reports an empty project plainly", async () => {
    const bad = await runCtx(["audit", "--session", "../x"], { cwd: project, env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/ctx: "\.\.\/x" is not a session id/);
    const empty = await runCtx(["audit", "--json"], { cwd: project, env });
    expect(JSON.parse(empty.stdout)).toEqual({ compactions: [] });
    expect(existsSync(join(project, ".ctx", "snapshots"))).toBe(false);
  });
});
