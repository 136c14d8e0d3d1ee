// ctx_budget: the five-compartment context budget, one op per call (list, add, pin, unpin, evict, estimate,
// assemble). The input is a union discriminated on `op`, so each op takes exactly its own fields.
import * as z from "zod/mini";
import {
  AssemblySchema,
  BudgetItemSchema,
  CompartmentSchema,
  MAX_ITEM_PRIORITY,
  MIN_ITEM_PRIORITY,
} from "../../core/budget/compartments.ts";
import {
  addToBudget,
  assembleFromBudget,
  BudgetAddedSchema,
  BudgetEstimateSchema,
  BudgetListingSchema,
  type BudgetOpsDeps,
  estimateBudget,
  evictFromBudget,
  listBudget,
  pinBudgetItem,
} from "../../store/budget/operations.ts";
import { defineTool, type ToolReply } from "../define-tool.ts";
import type { ServerDeps } from "../deps.ts";

const compartment = CompartmentSchema;
const itemId = z.string().check(z.regex(/^b\d+$/), z.describe("An item id from list, e.g. b3."));
const FIELDS = {
  compartment,
  text: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(20_000),
      z.describe("add: what to keep in view (secrets are redacted); estimate: text to size."),
    ),
  priority: z
    .int()
    .check(z.minimum(MIN_ITEM_PRIORITY), z.maximum(MAX_ITEM_PRIORITY), z.describe("add: 1 (least) to 5; default 3.")),
  pinned: z.boolean().check(z.describe("add: never evicted automatically.")),
  over_cap: z
    .enum(["evict", "error"])
    .check(z.describe("add over the compartment cap: evict its least important items (default) or fail.")),
  id: itemId,
  tokens: z.int().check(z.positive(), z.describe("evict: free at least this many tokens, ambient knowledge first.")),
  max_tokens: z
    .int()
    .check(z.positive(), z.maximum(200_000), z.describe("assemble: token limit of the rendered budget.")),
};
const OPS = ["list", "add", "pin", "unpin", "evict", "estimate", "assemble"] as const;

/** The real input: a union discriminated on `op`, so each op takes exactly its own fields. */
export const BudgetInputSchema = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("list"), compartment: z.optional(compartment) }),
  z.strictObject({
    op: z.literal("add"),
    compartment,
    text: FIELDS.text,
    priority: z.optional(FIELDS.priority),
    pinned: z.optional(FIELDS.pinned),
    over_cap: z.optional(FIELDS.over_cap),
  }),
  z.strictObject({ op: z.literal("pin"), id: itemId }),
  z.strictObject({ op: z.literal("unpin"), id: itemId }),
  z.strictObject({ op: z.literal("evict"), id: z.optional(itemId), tokens: z.optional(FIELDS.tokens) }).check(
    z.refine((value) => (value.id === undefined) !== (value.tokens === undefined), {
      message: "evict takes exactly one of id or tokens",
      path: ["id"],
    }),
  ),
  z.strictObject({ op: z.literal("estimate"), text: z.optional(z.string()), compartment: z.optional(compartment) }),
  z.strictObject({ op: z.literal("assemble"), max_tokens: FIELDS.max_tokens }),
]);
export type BudgetInput = z.infer<typeof BudgetInputSchema>;

/**
 * What the tool advertises: MCP tool inputs must be one JSON object schema, so every op's fields appear
 * optional here, and a refinement holds the arguments to the union above (clients see its issues).
 */
export const BudgetToolInputSchema = z
  .object({
    op: z.enum(OPS),
    ...Object.fromEntries(Object.entries(FIELDS).map(([name, schema]) => [name, z.optional(schema)])),
  })
  .check(
    z.superRefine((value, ctx) => {
      const parsed = BudgetInputSchema.safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    }),
  );

/** One op's result, tagged with the op; its parts are what `ctx budget <op> --json` prints. */
export const BudgetOutputSchema = z.object({
  op: z.string(),
  items: z.optional(BudgetListingSchema.shape.items),
  compartments: z.optional(BudgetListingSchema.shape.compartments),
  item: z.optional(BudgetItemSchema),
  evicted: z.optional(BudgetAddedSchema.shape.evicted),
  redactions: z.optional(BudgetAddedSchema.shape.redactions),
  estimate: z.optional(z.omit(BudgetEstimateSchema, { compartments: true })),
  assembly: z.optional(AssemblySchema),
});
export type BudgetOutput = z.infer<typeof BudgetOutputSchema>;

export function budgetOpsDeps(deps: Pick<ServerDeps, "projectRoot" | "config" | "now">): BudgetOpsDeps {
  return {
    projectRoot: deps.projectRoot,
    caps: deps.config.budget.caps,
    allowlist: deps.config.redaction.allowlist,
    now: deps.now,
  };
}

export async function runBudgetOp(deps: BudgetOpsDeps, input: BudgetInput): Promise<ToolReply<BudgetOutput>> {
  switch (input.op) {
    case "list": {
      const { items, compartments } = await listBudget(deps, input.compartment);
      const usage = compartments.map((c) => `${c.compartment} ${c.tokens}/${c.cap}`).join(", ");
      const lines = items.map((i) => `${i.id} [${i.compartment} p${i.priority}${i.pinned ? " pinned" : ""}] ${i.text}`);
      return {
        text: [`Budget (tokens used/cap): ${usage}`, ...(lines.length === 0 ? ["(no items)"] : lines)].join("\n"),
        structured: { op: "list", items, compartments },
      };
    }
    case "add": {
      const added = await addToBudget(deps, {
        compartment: input.compartment,
        text: input.text,
        ...(input.priority === undefined ? {} : { priority: input.priority }),
        ...(input.pinned === undefined ? {} : { pinned: input.pinned }),
        ...(input.over_cap === undefined ? {} : { overCap: input.over_cap }),
      });
      const evicted =
        added.evicted.length === 0 ? "" : ` Evicted to make room: ${added.evicted.map((i) => i.id).join(", ")}.`;
      return {
        text: `Added ${added.item.id} to ${added.item.compartment} (~${added.item.tokens} tokens).${evicted}`,
        structured: { op: "add", item: added.item, evicted: added.evicted, redactions: added.redactions },
      };
    }
    case "pin":
    case "unpin": {
      const item = await pinBudgetItem(deps, input.id, input.op === "pin");
      return { text: `${input.op === "pin" ? "Pinned" : "Unpinned"} ${item.id}.`, structured: { op: input.op, item } };
    }
    case "evict": {
      const evicted = await evictFromBudget(
        deps,
        input.id !== undefined ? { id: input.id } : { tokens: input.tokens ?? 0 },
      );
      const freed = evicted.reduce((sum, i) => sum + i.tokens, 0);
      const text =
        evicted.length === 0
          ? "Nothing evictable (pinned items and safety constraints are never evicted automatically)."
          : `Evicted ${evicted.map((i) => i.id).join(", ")} (~${freed} tokens).`;
      return { text, structured: { op: "evict", evicted } };
    }
    case "estimate": {
      const e = await estimateBudget(deps, {
        ...(input.text === undefined ? {} : { text: input.text }),
        ...(input.compartment === undefined ? {} : { compartment: input.compartment }),
      });
      const head =
        e.tokens === null
          ? ""
          : `~${e.tokens} tokens${e.fits === null ? "" : e.fits ? " (fits)" : " (over the cap)"}. `;
      return {
        text: `${head}Budget holds ~${e.totalTokens} of ${e.totalCap} tokens.`,
        structured: {
          op: "estimate",
          compartments: e.compartments,
          estimate: { tokens: e.tokens, fits: e.fits, totalTokens: e.totalTokens, totalCap: e.totalCap },
        },
      };
    }
    case "assemble": {
      const assembly = await assembleFromBudget(deps, input.max_tokens, { touch: true });
      const text = assembly.text === "" ? "(the budget is empty, or nothing fits)" : assembly.text;
      return { text, structured: { op: "assemble", assembly } };
    }
  }
}

export const budgetTool = defineTool({
  name: "ctx_budget",
  title: "ctx budget",
  description:
    "The context budget: items kept in view across compactions, in 5 compartments with token caps " +
    "(safety_constraints, active_task, operator_preferences, project_background, ambient_knowledge). " +
    "op list|add {compartment, text, priority?}|pin {id}|unpin {id}|evict {id}|evict {tokens}|estimate " +
    "{text?, compartment?}|assemble {max_tokens}. Eviction takes ambient knowledge first and never touches " +
    "pinned items or safety constraints. The assembled budget is re-injected after each compaction.",
  input: BudgetToolInputSchema,
  output: BudgetOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  handle: (input, deps) => runBudgetOp(budgetOpsDeps(deps), BudgetInputSchema.parse(input)),
});
