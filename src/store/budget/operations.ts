// The context budget's operations over the project's budget file, shared by the `ctx_budget` tool and
// `ctx budget`: text is redacted before it is kept, every change is one locked read-modify-write. Their
// results (schemas below, and the item, usage and assembly schemas in core) are `ctx budget --json`'s output
// and the parts of the ctx_budget result alike.
import * as z from "zod/mini";
import {
  type AddRequest,
  type Assembly,
  addBudgetItem,
  assembleBudget,
  type BudgetCaps,
  type BudgetItem,
  BudgetItemSchema,
  type Compartment,
  CompartmentUsageSchema,
  compartmentUsage,
  type EvictRequest,
  evictBudgetItems,
  setBudgetPinned,
  touchBudgetItems,
} from "../../core/budget/compartments.ts";
import { estimateTokens } from "../../core/estimate.ts";
import { redactText } from "../../core/redact/redact.ts";
import { readBudget, updateBudget } from "./budget-store.ts";

export interface BudgetOpsDeps {
  projectRoot: string;
  caps: BudgetCaps;
  allowlist: readonly string[];
  now: () => Date;
}

export const BudgetListingSchema = z.object({
  items: z.array(BudgetItemSchema),
  compartments: z.array(CompartmentUsageSchema),
});
export type BudgetListing = z.infer<typeof BudgetListingSchema>;

export async function listBudget(deps: BudgetOpsDeps, compartment?: Compartment): Promise<BudgetListing> {
  const file = await readBudget(deps.projectRoot);
  const items = compartment === undefined ? file.items : file.items.filter((i) => i.compartment === compartment);
  return { items, compartments: compartmentUsage(file, deps.caps) };
}

export const BudgetAddedSchema = z.object({
  item: BudgetItemSchema,
  /** Items evicted to make room. */
  evicted: z.array(BudgetItemSchema),
  redactions: z.int(),
});
export type BudgetAdded = z.infer<typeof BudgetAddedSchema>;

export async function addToBudget(deps: BudgetOpsDeps, request: AddRequest): Promise<BudgetAdded> {
  const redacted = redactText(request.text, { allowlist: deps.allowlist });
  return updateBudget(deps.projectRoot, (current) => {
    const { file, item, evicted } = addBudgetItem(current, { ...request, text: redacted.text }, deps.caps, deps.now());
    return { file, result: { item, evicted, redactions: redacted.findings.length } };
  });
}

export async function pinBudgetItem(deps: BudgetOpsDeps, id: string, pinned: boolean): Promise<BudgetItem> {
  return updateBudget(deps.projectRoot, (current) => {
    const { file, item } = setBudgetPinned(current, id, pinned);
    return { file, result: item };
  });
}

export async function evictFromBudget(deps: BudgetOpsDeps, request: EvictRequest): Promise<BudgetItem[]> {
  return updateBudget(deps.projectRoot, (current) => {
    const { file, evicted } = evictBudgetItems(current, request);
    return { file, result: evicted };
  });
}

export const BudgetEstimateSchema = z.object({
  /** Tokens of the given text (after redaction), or null when no text was given. */
  tokens: z.nullable(z.int()),
  /** Whether the text fits the compartment's free room; null without both text and compartment. */
  fits: z.nullable(z.boolean()),
  compartments: z.array(CompartmentUsageSchema),
  totalTokens: z.int(),
  totalCap: z.int(),
});
export type BudgetEstimate = z.infer<typeof BudgetEstimateSchema>;

export async function estimateBudget(
  deps: BudgetOpsDeps,
  request: { text?: string; compartment?: Compartment },
): Promise<BudgetEstimate> {
  const compartments = compartmentUsage(await readBudget(deps.projectRoot), deps.caps);
  const tokens =
    request.text === undefined ? null : estimateTokens(redactText(request.text, { allowlist: deps.allowlist }).text);
  const usage = compartments.find((entry) => entry.compartment === request.compartment);
  return {
    tokens,
    fits: tokens === null || usage === undefined ? null : usage.tokens + tokens <= usage.cap,
    compartments,
    totalTokens: compartments.reduce((sum, entry) => sum + entry.tokens, 0),
    totalCap: compartments.reduce((sum, entry) => sum + entry.cap, 0),
  };
}

/** The budget rendered within `maxTokens`; `touch` marks the included items as used (the tool does). */
export async function assembleFromBudget(
  deps: BudgetOpsDeps,
  maxTokens: number,
  options: { touch: boolean },
): Promise<Assembly> {
  if (!options.touch) return assembleBudget(await readBudget(deps.projectRoot), maxTokens);
  return updateBudget(deps.projectRoot, (current) => {
    const assembly = assembleBudget(current, maxTokens);
    return { file: touchBudgetItems(current, assembly.included, deps.now()), result: assembly };
  });
}
