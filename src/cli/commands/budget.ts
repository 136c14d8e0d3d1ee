// `ctx budget <op>`: the context budget from the shell (the same operations as the ctx_budget tool):
// list, add, pin, unpin, evict, estimate, assemble. `--json` prints the operation's result as data.
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { COMPARTMENTS, type Compartment, type CompartmentUsage } from "../../core/budget/compartments.ts";
import { CtxError } from "../../errors.ts";
import {
  addToBudget,
  assembleFromBudget,
  type BudgetOpsDeps,
  estimateBudget,
  evictFromBudget,
  listBudget,
  pinBudgetItem,
} from "../../store/budget/operations.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";

function compartmentOf(value: string | undefined): Compartment | undefined {
  if (value === undefined) return undefined;
  if ((COMPARTMENTS as readonly string[]).includes(value)) return value as Compartment;
  throw new CtxError("USAGE", `unknown compartment "${value}"`, { hint: `one of ${COMPARTMENTS.join(", ")}` });
}

function positiveInt(value: string, what: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number <= 0)
    throw new CtxError("USAGE", `${what} must be a positive whole number, not "${value}"`);
  return number;
}

const usageLine = (usage: CompartmentUsage[]) => usage.map((c) => `${c.compartment} ${c.tokens}/${c.cap}`).join(", ");

export function registerBudgetCommand(program: Command, ctx: CliContext): void {
  const budget = program.command("budget").description(COMMANDS.budget.description);
  const depsFor = (flags: ProjectFlags): BudgetOpsDeps => {
    const projectRoot = projectRootFor(ctx, flags);
    const config = loadConfig({ projectRoot, env: ctx.env });
    return { projectRoot, caps: config.budget.caps, allowlist: config.redaction.allowlist, now: () => new Date() };
  };
  const print = (flags: ProjectFlags, data: unknown, text: string) =>
    ctx.out(flags.json ? formatJson(data) : `${text}\n`);

  addProjectFlags(budget.command("list").description("items and compartment usage").option("--compartment <c>")).action(
    async (flags: ProjectFlags & { compartment?: string }) => {
      const listing = await listBudget(depsFor(flags), compartmentOf(flags.compartment));
      const lines = listing.items.map(
        (i) => `${i.id}  [${i.compartment} p${i.priority}${i.pinned ? " pinned" : ""}]  ${i.text}`,
      );
      print(flags, listing, [`tokens used/cap: ${usageLine(listing.compartments)}`, ...lines].join("\n"));
    },
  );
  addProjectFlags(
    budget
      .command("add")
      .description("keep a text in a compartment")
      .argument("<compartment>", COMPARTMENTS.join(" | "))
      .argument("<text...>")
      .option("--priority <n>", "1 (least) to 5 (most); default 3")
      .option("--pin", "never evicted automatically")
      .option("--no-evict", "fail instead of evicting when the compartment is full"),
  ).action(
    async (
      compartment: string,
      words: string[],
      flags: ProjectFlags & { priority?: string; pin?: boolean; evict: boolean },
    ) => {
      const added = await addToBudget(depsFor(flags), {
        compartment: compartmentOf(compartment) as Compartment,
        text: words.join(" "),
        ...(flags.priority === undefined ? {} : { priority: positiveInt(flags.priority, "--priority") }),
        pinned: flags.pin === true,
        overCap: flags.evict ? "evict" : "error",
      });
      const evicted = added.evicted.length === 0 ? "" : `; evicted ${added.evicted.map((i) => i.id).join(", ")}`;
      print(flags, added, `added ${added.item.id} (~${added.item.tokens} tokens)${evicted}`);
    },
  );
  for (const pin of [true, false]) {
    addProjectFlags(
      budget
        .command(pin ? "pin" : "unpin")
        .argument("<id>")
        .description(pin ? "never evict an item automatically" : "let eviction take an item again"),
    ).action(async (id: string, flags: ProjectFlags) => {
      const item = await pinBudgetItem(depsFor(flags), id, pin);
      print(flags, { item }, `${pin ? "pinned" : "unpinned"} ${item.id}`);
    });
  }
  addProjectFlags(
    budget
      .command("evict")
      .description("remove one item by id, or free --tokens n (ambient knowledge first; never pinned or safety items)")
      .argument("[id]")
      .option("--tokens <n>"),
  ).action(async (id: string | undefined, flags: ProjectFlags & { tokens?: string }) => {
    if ((id === undefined) === (flags.tokens === undefined)) {
      throw new CtxError("USAGE", "evict takes an item id or --tokens <n>, not both or neither");
    }
    const request = id !== undefined ? { id } : { tokens: positiveInt(flags.tokens ?? "", "--tokens") };
    const evicted = await evictFromBudget(depsFor(flags), request);
    print(
      flags,
      { evicted },
      evicted.length === 0 ? "nothing evictable" : `evicted ${evicted.map((i) => i.id).join(", ")}`,
    );
  });
  addProjectFlags(
    budget
      .command("estimate")
      .description("tokens of a text, and the budget's totals")
      .argument("[text...]")
      .option("--compartment <c>"),
  ).action(async (words: string[], flags: ProjectFlags & { compartment?: string }) => {
    const compartment = compartmentOf(flags.compartment);
    const estimate = await estimateBudget(depsFor(flags), {
      ...(words.length === 0 ? {} : { text: words.join(" ") }),
      ...(compartment === undefined ? {} : { compartment }),
    });
    const head =
      estimate.tokens === null
        ? ""
        : `~${estimate.tokens} tokens${estimate.fits === null ? "" : estimate.fits ? " (fits)" : " (over the cap)"}; `;
    print(flags, estimate, `${head}budget ~${estimate.totalTokens} of ${estimate.totalCap} tokens`);
  });
  addProjectFlags(
    budget
      .command("assemble")
      .description("the budget as it is re-injected")
      .option("--max-tokens <n>", "default budget.injectMaxTokens"),
  ).action(async (flags: ProjectFlags & { maxTokens?: string }) => {
    const deps = depsFor(flags);
    const max =
      flags.maxTokens === undefined
        ? loadConfig({ projectRoot: deps.projectRoot, env: ctx.env }).budget.injectMaxTokens
        : positiveInt(flags.maxTokens, "--max-tokens");
    const assembly = await assembleFromBudget(deps, max, { touch: false });
    print(flags, assembly, assembly.text === "" ? "(empty)" : assembly.text);
  });
}
