// The built binary end to end for the context commands: save -> restore --print -> snapshot list ->
// clear --force, and the exit codes and stderr of the error paths (1 for NOT_FOUND, 2 for usage).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ContextStateSchema } from "../../src/core/context/extract.ts";
import { recordSessionStart } from "../../src/core/sessions/seen.ts";
import { readProjectState } from "../../src/store/context/project-state.ts";
import { updateSessionsSeen } from "../../src/store/sessions/seen.ts";
import { createSnapshot } from "../../src/store/snapshots/snapshots.ts";
import { sessionLines } from "../helpers/cli-project.ts";
import { runCtx } from "./ctx-process.ts";

const base = mkdtempSync(join(tmpdir(), "ctx-snapshot-cli-e2e-"));
const root = join(base, "repo");
const env = { CTX_HOME: join(base, "ctx-home"), HOME: base };
const sessionId = "e2e-session-1";
const transcript = join(base, `${sessionId}.jsonl`);
const ctx = (args: string[]) => runCtx(args, { cwd: root, env });

beforeAll(async () => {
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"));
  const sourceFile = join(root, "src", "retry.ts");
  writeFileSync(sourceFile, "export const retries = 3;\n");
  writeFileSync(transcript, `${sessionLines({ sessionId, cwd: root }, sourceFile).join("\n")}\n`);
  await updateSessionsSeen(root, (file) =>
    recordSessionStart(file, {
      sessionId,
      transcriptPath: transcript,
      cwd: root,
      at: new Date(),
      source: "startup",
      model: null,
    }),
  );
});

describe("ctx save / restore / snapshot / clear (built binary)", () => {
  it("before any save: restore exits 1 with the message and a hint, stdout empty", async () => {
    const result = await ctx(["restore"]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe(
      "ctx: nothing saved for this project yet\nhint: `ctx save` saves the current session's context now " +
        "(the hooks also save at session end and before compaction)\n",
    );
  });

  it("save -> restore --print -> snapshot list -> clear --force", async () => {
    const saved = await ctx(["save"]);
    expect(saved).toMatchObject({ code: 0, stderr: "" });
    expect(saved.stdout).toMatch(/saved\s+session e2e-session-1/);

    const printed = await ctx(["restore", "--print"]);
    expect(printed).toMatchObject({ code: 0, stderr: "" });
    expect(printed.stdout).toContain("[~] Write the retry helper");
    expect(printed.stdout).toContain("## Conversation since the last compaction");

    const state = await readProjectState(root);
    if (state === null) throw new Error("ctx save wrote nothing");
    const { snapshot } = await createSnapshot(
      root,
      { sessionId, trigger: "auto", state, stateSchema: ContextStateSchema, transcriptPath: transcript },
      { codec: "lz4" },
    );
    const listed = await ctx(["snapshot", "list", "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).snapshots.map((s: { id: string }) => s.id)).toEqual([snapshot.id]);
    const recompressed = await ctx(["snapshot", "recompress", snapshot.id]);
    expect(recompressed).toMatchObject({ code: 0, stderr: "" });

    const refused = await ctx(["clear"]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^ctx: clearing deletes .*\nhint: .*ctx clear --force/);

    const cleared = await ctx(["clear", "--force"]);
    expect(cleared).toMatchObject({ code: 0, stderr: "" });
    expect(cleared.stdout).toMatch(/^cleared .*state\.ctx\n$/);
    expect((await ctx(["restore"])).code).toBe(1);
    expect((await ctx(["snapshot", "restore", snapshot.id])).stdout).toContain("Write the retry helper");
  });

  it("an unknown snapshot id exits 1 naming it; a bad --mode exits 2", async () => {
    const unknown = await ctx(["snapshot", "show", "20260101T000000000Z-abcdef"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toContain("ctx: no snapshot 20260101T000000000Z-abcdef in this project");
    expect(unknown.stderr).toContain("hint: `ctx snapshot list`");
    const recompress = await ctx(["snapshot", "recompress", "20260101T000000000Z-abcdef"]);
    expect(recompress.code).toBe(1);
    const badMode = await ctx(["restore", "--mode", "everything"]);
    expect(badMode).toMatchObject({ code: 2, stdout: "" });
    expect(badMode.stderr).toContain("Allowed choices are full, summary, selective");
  });
});
