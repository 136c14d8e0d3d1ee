// The context budget's operations over the project's budget file, shared by the `ctx_budget` tool and
// `ctx budget`: text is redacted before it is kept, every change is one locked read-modify-write.
import {
  type AddRequest,
  type Assembly,
  addBudgetItem,
  assembleBudget,
  type BudgetCaps,
  type BudgetItem,
  type Compartment,
  type CompartmentUsage,
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

export interface BudgetListing {
  items: BudgetItem[];
  compartments: CompartmentUsage[];
}

export async function listBudget(deps: BudgetOpsDeps, compartment?: Compartment): Promise<BudgetListing> {
  const file = await readBudget(deps.projectRoot);
  const items = compartment === undefined ? file.items : file.items.filter((i) => i.compartment === compartment);
  return { items, compartments: compartmentUsage(file, deps.caps) };
}

export interface BudgetAdded {
  item: BudgetItem;
  evicted: BudgetItem[];
  redactions: number;
}

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

export interface BudgetEstimate {
  /** Tokens of the given text (after redaction), or null when no text was given. */
  tokens: number | null;
  /** Whether the text fits the compartment's free room; null without both text and compartment. */
  fits: boolean | null;
  compartments: CompartmentUsage[];
  totalTokens: number;
  totalCap: number;
}

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
