// The value of the golden snapshot and checkpoint files (tests/golden/v1-snapshot.ctx, v1-checkpoint.ctx):
// what `.ctx/snapshots/<id>.ctx` and `.ctx/checkpoints/<id>.ctx` hold in format version 1.
const transcriptText =
  '{"type":"user","sessionId":"golden-session","message":{"role":"user","content":"fix the parser"}}\n' +
  '{"type":"assistant","sessionId":"golden-session","message":{"role":"assistant","content":"done"}}\n';

export const GOLDEN_STATE = { todos: [{ content: "fix the parser", status: "completed" }], files: ["src/parse.ts"] };

export const GOLDEN_SNAPSHOT = {
  meta: {
    id: "20261122T031100123Z-0a1b2c",
    sessionId: "golden-session",
    trigger: "auto",
    createdAt: "2026-11-22T03:11:00.123Z",
    name: "golden",
    transcript: {
      path: "/home/user/.claude/projects/-home-user-p/golden-session.jsonl",
      bytes: transcriptText.length,
      lines: 2,
    },
    stateSummary: { todos: 1, files: 1 },
  },
  state: GOLDEN_STATE,
  transcript: new TextEncoder().encode(transcriptText),
};

export const GOLDEN_CHECKPOINT = {
  meta: {
    id: "20261122T031500000Z-3d4e5f",
    sessionId: "golden-session",
    createdAt: "2026-11-22T03:15:00.000Z",
    messageCount: 40,
  },
  state: GOLDEN_STATE,
};
