import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { AssemblySchema } from "../../core/budget/compartments.ts";
import { BudgetEstimateSchema, BudgetListingSchema } from "../../store/budget/operations.ts";

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-budget-cli-"));
  root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  env = { HOME: base, CTX_HOME: join(base, "ctx-home"), CTX_BUDGET__CAPS__AMBIENT_KNOWLEDGE: "12" };
});
const run = (argv: string[]) => runCliCaptured(argv, { cwd: root, env });

describe("ctx budget", () => {
  it("adds, lists, pins, estimates, assembles and evicts from the shell", async () => {
    expect((await run(["budget", "add", "safety_constraints", "No", "prod", "writes"])).stdout).toBe(
      "added b1 (~4 tokens)\n",
    );
    await run(["budget", "add", "ambient_knowledge", "CI", "has", "two", "cores", "--priority", "2"]);
    const list = BudgetListingSchema.parse(JSON.parse((await run(["budget", "list", "--json"])).stdout));
    expect(list.items.map((item) => [item.id, item.text])).toEqual([
      ["b1", "No prod writes"],
      ["b2", "CI has two cores"],
    ]);
    expect((await run(["budget", "pin", "b2"])).stdout).toBe("pinned b2\n");
    expect((await run(["budget", "estimate", "abcdefgh", "--compartment", "ambient_knowledge"])).stdout).toBe(
      "~2 tokens (fits); budget ~8 of 10012 tokens\n",
    );
    expect((await run(["budget", "assemble"])).stdout).toContain("### Safety constraints\n- No prod writes");
    const estimate = BudgetEstimateSchema.parse(JSON.parse((await run(["budget", "estimate", "--json"])).stdout));
    expect(estimate).toMatchObject({ tokens: null, fits: null, totalTokens: 8 });
    const assembly = AssemblySchema.parse(JSON.parse((await run(["budget", "assemble", "--json"])).stdout));
    expect(assembly.included).toEqual(["b1", "b2"]);
    expect((await run(["budget", "evict", "--tokens", "100"])).stdout).toBe("nothing evictable\n");
    expect((await run(["budget", "evict", "b1"])).stdout).toBe("evicted b1\n");
  });

  it("fails clearly: unknown compartment, a full compartment with --no-evict, evict with neither id nor --tokens", async () => {
    await expect(run(["budget", "add", "misc", "x"])).rejects.toMatchObject({
      code: "USAGE",
      message: 'unknown compartment "misc"',
    });
    await run(["budget", "add", "ambient_knowledge", "a".repeat(40)]);
    await expect(run(["budget", "add", "ambient_knowledge", "b".repeat(16), "--no-evict"])).rejects.toMatchObject({
      code: "STORAGE_LIMIT",
    });
    expect((await run(["budget", "add", "ambient_knowledge", "b".repeat(16)])).stdout).toBe(
      "added b2 (~4 tokens); evicted b1\n",
    );
    await expect(run(["budget", "evict"])).rejects.toMatchObject({ code: "USAGE" });
  });
});
