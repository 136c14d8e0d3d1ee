// The audit on every real compaction of the fixture transcripts (tests/fixtures/audit/measure.ts): the state
// ctx would have saved at PreCompact against the summary Claude Code wrote. The loss rates are reported by
// `node bench/run.ts audit`; here the fates the real summaries give are pinned, so a change of the matching
// that turns a file the summary names into "lost" (or the reverse) fails.
import { describe, expect, it } from "vitest";
import { measureCompactions, transcriptsWithCompactions } from "../../../tests/fixtures/audit/measure.ts";

describe("compaction audit on the fixtures' real compactions", () => {
  const transcripts = transcriptsWithCompactions();

  it("finds every compaction in the fixtures", () => {
    const found = transcripts
      .flatMap((path) => measureCompactions(path))
      .map((m) => `${m.transcript}:${m.boundaryLine}`);
    expect(found).toEqual([
      "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl:754",
      "transcripts/synthetic/task-tools.jsonl:17",
    ]);
  });

  it("the long real session: the summary names every file being edited and the last request", () => {
    const [measure] = measureCompactions(transcripts.find((path) => path.includes("4d5611e5")) ?? "");
    expect(measure?.items.filter((item) => item.kind === "file")).toHaveLength(7);
    expect(measure?.items.every((item) => item.fate === "kept")).toBe(true);
    expect(measure?.lossRate).toBe(0);
  });

  it("the scripted session: the dropped task, plan, file and failure are lost, the rest kept", () => {
    const [measure] = measureCompactions(transcripts.find((path) => path.includes("task-tools")) ?? "");
    expect(measure?.items.map((item) => `${item.kind}:${item.fate}`)).toEqual([
      "task:lost",
      "task:kept",
      "task:paraphrased",
      "plan:lost",
      "decision:kept",
      "preference:kept",
      "file:lost",
      "failure:lost",
    ]);
    expect(measure?.lossRate).toBe(0.5);
  });
});
