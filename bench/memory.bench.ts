// Costs of the budget, CLAUDE.md rules and auto-memory paths: ctx_budget's store operations on a full budget
// (MCP tool budget: p95 <= 50 ms), the rules cascade read that PreCompact adds, and one memory write that
// rewrites MEMORY.md over 300 topics (trimmed to 200 lines).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import { addToBudget, assembleFromBudget, listBudget } from "../src/store/budget/operations.ts";
import { writeMemory } from "../src/store/memory/memory-store.ts";
import { discoverClaudeMdRules } from "../src/store/rules/claude-md.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 100) / 100;
}

async function time(fn: () => Promise<unknown> | unknown): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

export async function run(): Promise<Record<string, unknown>> {
  const base = mkdtempSync(join(tmpdir(), "ctx-bench-memory-"));
  try {
    const project = join(base, "repo");
    mkdirSync(join(project, ".git"), { recursive: true });
    const config = defaultConfig();
    const deps = { projectRoot: project, caps: config.budget.caps, allowlist: [], now: () => new Date() };
    const compartments = ["active_task", "project_background", "operator_preferences", "ambient_knowledge"] as const;
    let n = 0;
    const add = () => {
      n += 1;
      return addToBudget(deps, {
        compartment: compartments[n % 4] ?? "active_task",
        text: `item ${n}: ${"word ".repeat(12)}`,
      });
    };
    for (let i = 0; i < 150; i += 1) await add();
    const budgetAddMs = await time(add);
    const budgetListMs = await time(() => listBudget(deps));
    const budgetAssembleMs = await time(() => assembleFromBudget(deps, 1_000, { touch: false }));

    mkdirSync(join(project, "docs"));
    const rules = Array.from({ length: 40 }, (_, i) => `- Rule ${i}: ${"context ".repeat(8)}(ENFORCED)`).join("\n");
    writeFileSync(join(project, "CLAUDE.md"), `${rules}\n@docs/a.md\n`);
    writeFileSync(join(project, "docs", "a.md"), `${rules}\n@b.md\n\`\`\`\n@not.md\n\`\`\`\n`);
    writeFileSync(join(project, "docs", "b.md"), rules);
    const env = { HOME: base, CLAUDE_CONFIG_DIR: join(base, "claude") };
    const rulesDiscoverMs = await time(() => discoverClaudeMdRules(project, env));

    const memory = {
      dir: join(base, "memory"),
      limits: { maxLines: 200, maxBytes: 25_000 },
      allowlist: [],
      now: () => new Date(),
    };
    for (let i = 0; i < 300; i += 1) {
      await writeMemory(memory, {
        name: `topic ${i}`,
        description: `about topic ${i}`,
        type: "project",
        content: "x ".repeat(200),
      });
    }
    let m = 0;
    const memoryWriteMs = await time(() => {
      m += 1;
      return writeMemory(memory, {
        name: `topic ${m}`,
        description: "updated",
        type: "project",
        content: "y ".repeat(200),
      });
    });
    return {
      budgetItems: 150 + RUNS,
      budgetAddMs,
      budgetListMs,
      budgetAssembleMs,
      rules: discoverClaudeMdRules(project, env).rules.length,
      rulesDiscoverMs,
      memoryTopics: 300,
      memoryWriteMs,
      budgetP95Ms: 50,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
