import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  type McpTestProject,
  recordSession,
  SAVED_AT,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { DiffReportSchema } from "../../store/context/diff.ts";
import { CheckpointReportSchema, SaveReportSchema } from "../../store/context/operations.ts";
import { readProjectState } from "../../store/context/project-state.ts";
import { RestoreReportSchema } from "../../store/context/restore.ts";

let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);

const statePath = () => join(test.project, ".ctx", "state.ctx");

describe("ctx_save", () => {
  it("saves the newest recorded session and reports counts and the path", async () => {
    await recordSession(test, "older", new Date("2026-11-22T09:00:00Z"));
    await recordSession(test, "newer", new Date("2026-11-22T10:00:00Z"));
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_save", arguments: {} });
    expect(result.isError).toBeFalsy();
    const output = SaveReportSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ sessionId: "newer", name: null, path: statePath(), movedAside: null });
    expect(output.counts).toMatchObject({ todos: 1, files: 1, decisions: 1 });
    expect(output.redactions).toBe(0);
    expect(output.counts.conversationMessages).toBeGreaterThan(0);
    expect(textOf(result)).toContain("1 todos, 1 files, 1 decisions");
    expect((await readProjectState(test.project))?.sessionId).toBe("newer");
  });

  it("prefers the session that spawned the server, and keeps a named save", async () => {
    await recordSession(test, "mine", new Date("2026-11-22T09:00:00Z"));
    await recordSession(test, "other", new Date("2026-11-22T10:00:00Z"));
    const client = await connectClient(testDeps(test.project, { sessionId: "mine" }));
    const result = await client.callTool({ name: "ctx_save", arguments: { name: "before-refactor" } });
    const output = SaveReportSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ sessionId: "mine", name: "before-refactor" });
    expect(output.path).toBe(join(test.project, ".ctx", "saves", "before-refactor.ctx"));
    expect((await readProjectState(test.project, "before-refactor"))?.sessionId).toBe("mine");
  });

  it("falls back to the newest recorded session when the spawning one is not recorded", async () => {
    await recordSession(test, "recorded");
    const client = await connectClient(testDeps(test.project, { sessionId: "never-seen" }));
    const result = await client.callTool({ name: "ctx_save", arguments: {} });
    expect(SaveReportSchema.parse(result.structuredContent).sessionId).toBe("recorded");
  });

  it("is an isError result with the hint when no session is recorded, or the name is not a valid name", async () => {
    const client = await connectClient(testDeps(test.project));
    const none = await client.callTool({ name: "ctx_save", arguments: {} });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/ctx_save failed \[NOT_FOUND\].*\n.*hint: .*ctx init/);

    await recordSession(test, "s1");
    const badName = await client.callTool({ name: "ctx_save", arguments: { name: "../escape" } });
    expect(badName.isError).toBe(true);
    expect(textOf(badName)).toContain("[USAGE]");
    expect(existsSync(statePath())).toBe(false);
  });

  it("rejects a name that is not a string", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_save", { name: 7 }, "name");
  });
});

describe("ctx_restore", () => {
  it("says nothing is saved as an ordinary result", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_restore", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("no context is saved");
    expect(RestoreReportSchema.parse(result.structuredContent)).toMatchObject({ found: false, counts: null });
  });

  it("returns the summary by default, the conversation in full mode, and only the sections asked for", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    await client.callTool({ name: "ctx_save", arguments: {} });

    const summary = await client.callTool({ name: "ctx_restore", arguments: {} });
    const output = RestoreReportSchema.parse(summary.structuredContent);
    expect(output).toMatchObject({ found: true, mode: "summary", sessionId: "s1", savedAt: SAVED_AT.toISOString() });
    expect(output.origin).toContain("current saved state");
    expect(output.counts?.todos).toBe(1);
    const text = textOf(summary);
    expect(output.chars).toBe(text.length);
    expect(text).toContain("[~] Add retry helper");
    expect(text).toContain("retry three times");
    expect(text).toContain("## Conversation since the last compaction (assembled:");
    expect(text.length).toBeLessThanOrEqual(10_000);

    const full = textOf(await client.callTool({ name: "ctx_restore", arguments: { mode: "full" } }));
    expect(full).toContain("## Conversation since the last compaction");

    const selective = await client.callTool({ name: "ctx_restore", arguments: { sections: ["files"] } });
    expect(RestoreReportSchema.parse(selective.structuredContent).mode).toBe("selective");
    expect(textOf(selective)).toContain("src/retry.ts");
    expect(textOf(selective)).not.toContain("## Todo list");
  });

  it("keeps summary text within config hooks.maxInjectChars", async () => {
    await recordSession(test, "s1");
    const config = defaultConfig();
    config.hooks.maxInjectChars = 300;
    const client = await connectClient(testDeps(test.project, { config }));
    await client.callTool({ name: "ctx_save", arguments: {} });
    const result = await client.callTool({ name: "ctx_restore", arguments: { mode: "summary" } });
    expect(textOf(result).length).toBeLessThanOrEqual(300);
  });

  it("restores a named save, and says so when there is no such save", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    await client.callTool({ name: "ctx_save", arguments: { name: "milestone" } });
    const named = await client.callTool({ name: "ctx_restore", arguments: { name: "milestone" } });
    expect(RestoreReportSchema.parse(named.structuredContent).origin).toBe('the save "milestone"');
    const missing = await client.callTool({ name: "ctx_restore", arguments: { name: "nope" } });
    expect(missing.isError).toBeFalsy();
    expect(textOf(missing)).toContain('no save named "nope"');
  });

  it("is an isError result for an invalid save name or a damaged state", async () => {
    const client = await connectClient(testDeps(test.project));
    const bad = await client.callTool({ name: "ctx_restore", arguments: { name: "a/b" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("[USAGE]");

    mkdirSync(join(test.project, ".ctx"), { recursive: true });
    writeFileSync(statePath(), "not a ctx container");
    const damaged = await client.callTool({ name: "ctx_restore", arguments: {} });
    expect(damaged.isError).toBe(true);
    expect(textOf(damaged)).toContain("ctx_restore failed");
  });

  it("rejects an unknown mode and an unknown section", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_restore", { mode: "everything" }, "mode");
    await expectSchemaRejection(client, "ctx_restore", { sections: ["secrets"] }, "sections");
  });
});

describe("ctx_diff", () => {
  it("lists the tracked files modified, deleted and added since the save", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project, { now: () => new Date(Date.now() - 60_000) }));
    await client.callTool({ name: "ctx_save", arguments: {} });
    writeFileSync(test.file, "export const retries = 5;\n");
    writeFileSync(join(test.project, "src", "backoff.ts"), "export const base = 100;\n");
    const result = await client.callTool({ name: "ctx_diff", arguments: {} });
    expect(result.isError).toBeFalsy();
    const output = DiffReportSchema.parse(result.structuredContent);
    expect(output).toMatchObject({
      found: true,
      modified: [test.file],
      deleted: [],
      added: [join(test.project, "src", "backoff.ts")],
    });
    expect(textOf(result)).toContain("modified (1): src/retry.ts");
    expect(textOf(result)).toContain("added since the save (1): src/backoff.ts");
  });

  it("says nothing is saved as an ordinary result", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_diff", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(DiffReportSchema.parse(result.structuredContent).found).toBe(false);
    expect(textOf(result)).toContain("nothing to compare");
  });

  it("is an isError result for an invalid save name", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_diff", arguments: { name: "../x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ctx_diff failed [USAGE]");
  });

  it("rejects a name that is not a string", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_diff", { name: 42 }, "name");
  });
});

describe("ctx_clear", () => {
  it("refuses without force, with the hint, and keeps the state", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    await client.callTool({ name: "ctx_save", arguments: {} });
    const refused = await client.callTool({ name: "ctx_clear", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/\[USAGE\].*\n.*hint: pass force/);
    expect(existsSync(statePath())).toBe(true);
  });

  it("clears with force, and reports when there was nothing to clear", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    await client.callTool({ name: "ctx_save", arguments: { name: "kept" } });
    const cleared = await client.callTool({ name: "ctx_clear", arguments: { force: true } });
    expect(cleared.structuredContent).toEqual({ cleared: true, path: statePath() });
    expect(existsSync(statePath())).toBe(false);
    expect(await readProjectState(test.project, "kept")).not.toBeNull();
    const again = await client.callTool({ name: "ctx_clear", arguments: { force: true } });
    expect(again.structuredContent).toMatchObject({ cleared: false });
  });

  it("rejects a force that is not a boolean", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_clear", { force: "yes" }, "force");
  });
});

describe("ctx_checkpoint", () => {
  it("writes a checkpoint and returns its id", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_checkpoint", arguments: {} });
    expect(result.isError).toBeFalsy();
    const output = CheckpointReportSchema.parse(result.structuredContent);
    expect(output.sessionId).toBe("s1");
    expect(output.counts.todos).toBe(1);
    expect(readdirSync(join(test.project, ".ctx", "checkpoints"))).toContain(`${output.id}.ctx`);
    expect(existsSync(statePath())).toBe(false);
  });

  it("is an isError result when no session is recorded", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_checkpoint", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ctx_checkpoint failed [NOT_FOUND]");
  });

  it("rejects arguments it does not take", async () => {
    await recordSession(test, "s1");
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_checkpoint", { keep: 3 }, "keep");
    expect(existsSync(join(test.project, ".ctx", "checkpoints"))).toBe(false);
  });
});
