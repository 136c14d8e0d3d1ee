// PostCompact notes the compaction in the context guard: `ctx status`, `ctx_health` and the status line read the
// guard's file, which until the next tool call held the last figures from before the compaction ("critical ·
// 164.8K", no last compaction: #24).
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantText, compactBoundary, compactSummary, userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { silentLogger } from "../../log.ts";
import { ensureProjectCtxDir } from "../../store/files/project-dir.ts";
import { runContextGuard } from "../../store/guard/context-guard.ts";
import { readGuardState } from "../../store/guard/guard-store.ts";
import { handlePostCompact } from "./post-compact.hook.ts";

describe("PostCompact", () => {
  it("tells the guard of the compaction: no longer critical, the compaction recorded, nothing announced", async () => {
    const projectRoot = mkdtempSync(join(tmpdir(), "ctx-post-compact-"));
    await ensureProjectCtxDir(projectRoot);
    const session = "5b0c9f3e-0000-4000-8000-00000000c0c0";
    const line = { sessionId: session, cwd: projectRoot };
    const transcript = join(projectRoot, "session.jsonl");
    const big = {
      input_tokens: 3,
      cache_creation_input_tokens: 800,
      cache_read_input_tokens: 164_000,
      output_tokens: 90,
    };
    writeFileSync(transcript, `${[userPrompt(line, "go on"), assistantText(line, "msg_1", "done", big)].join("\n")}\n`);
    const deps = {
      env: {},
      now: () => new Date("2026-11-28T10:00:00Z"),
      logger: silentLogger,
      projectRoot,
      config: { ...defaultConfig(), guard: { ...defaultConfig().guard, windowTokens: 200_000 } },
      cliPath: "",
    };
    const input = { session_id: session, transcript_path: transcript };
    await runContextGuard(input, deps);
    const before = readGuardState(projectRoot, session);
    expect(before).toMatchObject({ tier: "critical", lastCompaction: null });

    // Claude Code runs PostCompact before it writes the compaction to the transcript.
    const outcome = await handlePostCompact(
      { ...input, cwd: projectRoot, hook_event_name: "PostCompact", trigger: "manual", compact_summary: "Summary." },
      deps,
    );
    expect(outcome).toBeNull();
    const after = readGuardState(projectRoot, session);
    expect(after).toMatchObject({ tier: "ok", usedTokens: null, measurements: [], announcedLevel: 0 });
    expect(after?.lastCompaction).toMatchObject({ trigger: "manual", preTokens: before?.usedTokens, postTokens: null });

    // The next tool call reads the context after the compaction from the transcript.
    const small = {
      input_tokens: 3,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 9_000,
      output_tokens: 40,
    };
    const lines = [compactBoundary(line, 164_893), compactSummary(line, "Summary."), userPrompt(line, "next")];
    appendFileSync(transcript, `${[...lines, assistantText(line, "msg_2", "ok", small)].join("\n")}\n`);
    await runContextGuard(input, deps);
    expect(readGuardState(projectRoot, session)).toMatchObject({ tier: "ok", usedTokens: 9_203 });
  });
});
