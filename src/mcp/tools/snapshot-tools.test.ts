import { mkdirSync, writeFileSync } from "node:fs";
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
import { ContextStateSchema } from "../../core/context/extract.ts";
import { saveContext } from "../../store/context/operations.ts";
import { RestoreReportSchema } from "../../store/context/restore.ts";
import { createSnapshot, pinSnapshot } from "../../store/snapshots/snapshots.ts";
import { SnapshotListingSchema } from "../shared/snapshot-listing.ts";
import { SnapshotListOutputSchema } from "./snapshot-list.ts";

let test: McpTestProject;
let transcript: string;
beforeEach(async () => {
  test = createEmptyProject();
  transcript = await recordSession(test, "s1");
});
afterEach(closeClients);

/** A snapshot of the session as the pre-compact hook takes it: the saved state plus the transcript. */
async function snapshot(trigger: "auto" | "manual", at: Date): Promise<string> {
  const { state } = await saveContext({ projectRoot: test.project, config: defaultConfig(), now: () => at });
  const created = await createSnapshot(
    test.project,
    { sessionId: "s1", trigger, state, stateSchema: ContextStateSchema, transcriptPath: transcript },
    { codec: "lz4", now: at },
  );
  return created.snapshot.id;
}

const UNKNOWN_ID = "20200101T000000000Z-abcdef";

describe("ctx_snapshot_list", () => {
  it("lists snapshots newest first; verbose adds state counts and transcript size", async () => {
    const older = await snapshot("auto", new Date("2026-11-22T09:00:00Z"));
    const newer = await snapshot("manual", new Date("2026-11-22T10:00:00Z"));
    await pinSnapshot(test.project, older);
    const client = await connectClient(testDeps(test.project));

    const plain = await client.callTool({ name: "ctx_snapshot_list", arguments: {} });
    expect(plain.isError).toBeFalsy();
    const { snapshots } = SnapshotListOutputSchema.parse(plain.structuredContent);
    expect(snapshots.map((s) => s.id)).toEqual([newer, older]);
    expect(snapshots[1]).toMatchObject({ trigger: "auto", sessionId: "s1", pinned: true, name: null });
    expect(snapshots[0]?.fileBytes).toBeGreaterThan(0);
    expect(snapshots[0]).not.toHaveProperty("stateSummary");
    expect(textOf(plain)).toContain("2 snapshot(s), newest first");
    expect(textOf(plain)).toMatch(new RegExp(`${older}.*pinned`));

    const verbose = await client.callTool({ name: "ctx_snapshot_list", arguments: { verbose: true } });
    const detailed = SnapshotListOutputSchema.parse(verbose.structuredContent).snapshots[0];
    expect(detailed?.stateSummary).toMatchObject({ decisions: 1, files: 1 });
    expect(detailed?.transcript).toMatchObject({ lines: 6 });
    expect(detailed?.transcript?.bytes).toBeGreaterThan(0);
  });

  it("says there are none as an ordinary result", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_snapshot_list", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ snapshots: [] });
    expect(textOf(result)).toContain("no snapshots");
  });

  it("is an isError result when the snapshot folder cannot be read", async () => {
    mkdirSync(join(test.project, ".ctx"), { recursive: true });
    writeFileSync(join(test.project, ".ctx", "snapshots"), "a file where the folder should be");
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_snapshot_list", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ctx_snapshot_list failed");
  });

  it("rejects a verbose that is not a boolean", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_snapshot_list", { verbose: "yes" }, "verbose");
  });
});

describe("ctx_snapshot_restore", () => {
  it("renders the snapshot's state like ctx_restore, without touching the saved state", async () => {
    const id = await snapshot("auto", new Date("2026-11-22T09:00:00Z"));
    const client = await connectClient(testDeps(test.project));
    await client.callTool({ name: "ctx_clear", arguments: { force: true } });
    const result = await client.callTool({ name: "ctx_snapshot_restore", arguments: { id } });
    expect(result.isError).toBeFalsy();
    const output = RestoreReportSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ found: true, mode: "summary", sessionId: "s1" });
    expect(output.origin).toBe(`snapshot ${id} (auto, 2026-11-22T09:00:00.000Z)`);
    expect(textOf(result)).toContain("[~] Add retry helper");
    const restoreAfter = await client.callTool({ name: "ctx_restore", arguments: {} });
    expect(RestoreReportSchema.parse(restoreAfter.structuredContent).found).toBe(false);

    const full = await client.callTool({ name: "ctx_snapshot_restore", arguments: { id, mode: "full" } });
    expect(textOf(full)).toContain("## Conversation since the last compaction");
  });

  it("is an isError result naming ctx_snapshot_list for an unknown id", async () => {
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_snapshot_restore", arguments: { id: UNKNOWN_ID } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\[NOT_FOUND\].*\n.*hint: ctx_snapshot_list/);
  });

  it("rejects an id that is not a snapshot id", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_snapshot_restore", { id: "../../etc/passwd" }, "id");
    await expectSchemaRejection(client, "ctx_snapshot_restore", {}, "id");
  });
});

describe("resources", () => {
  it("lists ctx://context, ctx://snapshots and one ctx://snapshots/{id} per snapshot", async () => {
    const id = await snapshot("auto", SAVED_AT);
    const client = await connectClient(testDeps(test.project));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["ctx://status", "ctx://context", "ctx://snapshots", `ctx://snapshots/${id}`]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("ctx://snapshots/{id}");
  });

  it("ctx://context is the saved context in full, or says nothing is saved", async () => {
    const client = await connectClient(testDeps(test.project));
    const empty = await client.readResource({ uri: "ctx://context" });
    expect((empty.contents[0] as { text: string }).text).toContain("no context is saved");

    await client.callTool({ name: "ctx_save", arguments: {} });
    const read = await client.readResource({ uri: "ctx://context" });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("text/markdown");
    expect(content.text).toContain("## Todo list (1)");
    expect(content.text).toContain("## Conversation since the last compaction");
  });

  it("ctx://snapshots is the verbose list as JSON", async () => {
    const id = await snapshot("manual", SAVED_AT);
    const client = await connectClient(testDeps(test.project));
    const read = await client.readResource({ uri: "ctx://snapshots" });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    const { snapshots } = SnapshotListOutputSchema.parse(JSON.parse(content.text));
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ id, trigger: "manual" });
    expect(snapshots[0]?.stateSummary).toBeDefined();
  });

  it("ctx://snapshots/{id} is the snapshot's listing and rendered summary; an unknown id is an error", async () => {
    const id = await snapshot("auto", SAVED_AT);
    const client = await connectClient(testDeps(test.project));
    const read = await client.readResource({ uri: `ctx://snapshots/${id}` });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    const body = JSON.parse(content.text) as { snapshot: unknown; summary: string };
    expect(SnapshotListingSchema.parse(body.snapshot)).toMatchObject({ id, trigger: "auto", sessionId: "s1" });
    expect(body.summary).toContain(`Source: snapshot ${id}`);
    expect(body.summary).toContain("[~] Add retry helper");

    await expect(client.readResource({ uri: `ctx://snapshots/${UNKNOWN_ID}` })).rejects.toThrow(/no snapshot/);
  });
});
