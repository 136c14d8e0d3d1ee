import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  type McpTestProject,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { auditCompaction, type CompactionAudit } from "../../core/audit/compaction-audit.ts";
import { AuditReportSchema } from "../../core/audit/report-schema.ts";
import { writeAudit } from "../../store/audit/audit-store.ts";

let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);

function audit(sessionId: string, snapshotId: string, at: string): CompactionAudit {
  const state = emptyContextState(sessionId);
  state.todos = {
    source: "TodoWrite",
    updatedAt: null,
    items: [
      { id: null, content: "Ship the parser", status: "pending", activeForm: null },
      { id: null, content: "Write the changelog", status: "pending", activeForm: null },
    ],
  };
  const items = auditCompaction({ state, rules: [], summary: "Pending: ship the parser.", threshold: 0.6 });
  return {
    version: 1,
    sessionId,
    snapshotId,
    at,
    summarySource: "transcript",
    summaryChars: 24,
    threshold: 0.6,
    items,
  };
}

describe("ctx_audit", () => {
  it("lists the compactions newest first with their lost items; session narrows it", async () => {
    await writeAudit(test.project, audit("s1", "20261122T100000000Z-aaaaaa", "2026-11-22T10:00:00.000Z"));
    await writeAudit(test.project, audit("s2", "20261122T110000000Z-bbbbbb", "2026-11-22T11:00:00.000Z"));
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_audit", arguments: {} });
    expect(result.isError).toBeFalsy();
    const report = AuditReportSchema.parse(result.structuredContent);
    expect(report.compactions.map((c) => c.sessionId)).toEqual(["s2", "s1"]);
    expect(report.compactions[0]).toMatchObject({ kept: 1, paraphrased: 0, lost: 1 });
    expect(report.compactions[0]?.lostItems).toEqual([{ kind: "task", text: "Write the changelog" }]);
    expect(textOf(result)).toContain("lost task: Write the changelog");

    const one = await client.callTool({ name: "ctx_audit", arguments: { session: "s1" } });
    expect(AuditReportSchema.parse(one.structuredContent).compactions.map((c) => c.snapshotId)).toEqual([
      "20261122T100000000Z-aaaaaa",
    ]);
  });

  it("is an isError result when the snapshot folder cannot be read", async () => {
    mkdirSync(join(test.project, ".ctx"), { recursive: true });
    writeFileSync(join(test.project, ".ctx", "snapshots"), "not a folder");
    const client = await connectClient(testDeps(test.project));
    const result = await client.callTool({ name: "ctx_audit", arguments: {} });
    expect(result.isError).toBe(true);
  });

  it("rejects a session argument that is not a session id", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_audit", { session: "../../etc" }, "session");
  });
});
