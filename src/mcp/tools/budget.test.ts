import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSecretCases } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  type McpTestProject,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { readBudget } from "../../store/budget/budget-store.ts";
import { BudgetOutputSchema } from "./budget.ts";

let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);

const call = async (client: Awaited<ReturnType<typeof connectClient>>, args: Record<string, unknown>) => {
  const result = await client.callTool({ name: "ctx_budget", arguments: args });
  return { result, output: result.isError ? null : BudgetOutputSchema.parse(result.structuredContent) };
};

describe("ctx_budget", () => {
  it("adds, lists, pins, unpins, estimates, assembles and evicts", async () => {
    const client = await connectClient(testDeps(test.project));
    const added = await call(client, { op: "add", compartment: "active_task", text: "Wire retries into the client" });
    expect(added.output?.item).toMatchObject({ id: "b1", compartment: "active_task", priority: 3, pinned: false });
    expect(textOf(added.result)).toContain("Added b1 to active_task");
    await call(client, {
      op: "add",
      compartment: "safety_constraints",
      text: "Never touch the prod database",
      priority: 5,
    });

    const listed = await call(client, { op: "list" });
    expect(listed.output?.items?.map((item) => item.id)).toEqual(["b1", "b2"]);
    expect(listed.output?.compartments?.find((c) => c.compartment === "active_task")).toMatchObject({
      cap: 4_000,
      items: 1,
    });
    expect((await call(client, { op: "list", compartment: "safety_constraints" })).output?.items).toHaveLength(1);

    expect((await call(client, { op: "pin", id: "b1" })).output?.item?.pinned).toBe(true);
    expect((await call(client, { op: "unpin", id: "b1" })).output?.item?.pinned).toBe(false);

    const estimate = await call(client, { op: "estimate", text: "x".repeat(40), compartment: "active_task" });
    expect(estimate.output?.estimate).toMatchObject({ tokens: 10, fits: true, totalCap: 12_000 });

    const assembled = await call(client, { op: "assemble", max_tokens: 500 });
    expect(assembled.output?.assembly?.included).toEqual(["b2", "b1"]);
    expect(textOf(assembled.result)).toContain("### Safety constraints\n- Never touch the prod database");

    const evicted = await call(client, { op: "evict", tokens: 1 });
    expect(evicted.output?.evicted?.map((item) => item.id)).toEqual(["b1"]);
    expect((await readBudget(test.project)).items.map((item) => item.id)).toEqual(["b2"]);
  });

  it("keeps the file private and redacts secrets before writing them", async () => {
    const token = buildSecretCases().find((c) => c.id === "github-ghp")?.secrets[0]?.value ?? "";
    const client = await connectClient(testDeps(test.project));
    const added = await call(client, { op: "add", compartment: "project_background", text: `deploy token ${token}` });
    expect(added.output?.redactions).toBe(1);
    expect(added.output?.item?.text).toBe("deploy token [REDACTED:github-token]");
    const path = join(test.project, ".ctx", "budget.ctx");
    expect(readFileSync(path).includes(token)).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("loses no add when two servers write at once", async () => {
    const [a, b] = [await connectClient(testDeps(test.project)), await connectClient(testDeps(test.project))];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 === 0 ? a : b, { op: "add", compartment: "ambient_knowledge", text: `fact ${i}` }),
      ),
    );
    const ids = (await readBudget(test.project)).items.map((item) => item.id);
    expect(new Set(ids).size).toBe(12);
  });

  it("is an isError result for an unknown id, a pinned item, an item over the cap, or a damaged file", async () => {
    const config = defaultConfig();
    config.budget.caps.operator_preferences = 10;
    const client = await connectClient(testDeps(test.project, { config }));
    const missing = await call(client, { op: "pin", id: "b7" });
    expect(missing.result.isError).toBe(true);
    expect(textOf(missing.result)).toMatch(/ctx_budget failed \[NOT_FOUND\]: no budget item b7/);

    await call(client, { op: "add", compartment: "operator_preferences", text: "tabs", pinned: true });
    const pinned = await call(client, { op: "evict", id: "b1" });
    expect(textOf(pinned.result)).toContain("hint: unpin it first");
    const over = await call(client, { op: "add", compartment: "operator_preferences", text: "x".repeat(40) });
    expect(over.result.isError).toBe(true);
    expect(textOf(over.result)).toContain("[STORAGE_LIMIT]");

    writeFileSync(join(test.project, ".ctx", "budget.ctx"), "garbage");
    const damaged = await call(client, { op: "list" });
    expect(textOf(damaged.result)).toContain("[STATE_CORRUPT]");
  });

  it("rejects an unknown op, a field another op owns, a bad compartment and an evict with neither id nor tokens", async () => {
    const client = await connectClient(testDeps(test.project));
    await expectSchemaRejection(client, "ctx_budget", { op: "shrink" }, "op");
    await expectSchemaRejection(client, "ctx_budget", { op: "list", max_tokens: 5 }, "max_tokens");
    await expectSchemaRejection(client, "ctx_budget", { op: "add", compartment: "misc", text: "a" }, "compartment");
    await expectSchemaRejection(client, "ctx_budget", { op: "evict" }, "id");
    await expectSchemaRejection(client, "ctx_budget", { op: "assemble" }, "max_tokens");
  });

  it("advertises one object schema naming every op and field", async () => {
    const client = await connectClient(testDeps(test.project));
    const tool = (await client.listTools()).tools.find((t) => t.name === "ctx_budget");
    expect(tool?.inputSchema.required).toEqual(["op"]);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["op", "compartment", "text", "priority", "id", "tokens", "max_tokens"]),
    );
  });
});
