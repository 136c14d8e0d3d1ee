// The context budget (pure): five compartments, each with a token cap and a priority, holding short items
// Claude or the user chose to keep in view (task, background, preferences, safety constraints, ambient
// knowledge). Eviction takes ambient knowledge first and never touches pinned items or safety constraints;
// assembly renders the most important items within a token limit. Texts arrive here already redacted.
import * as z from "zod/mini";
import { CtxError } from "../../errors.ts";
import { estimateTokens } from "../estimate.ts";

/** Compartments, most important first; the priority decides assembly order and (reversed) eviction order. */
export const COMPARTMENTS = [
  "safety_constraints",
  "active_task",
  "operator_preferences",
  "project_background",
  "ambient_knowledge",
] as const;
export const CompartmentSchema = z.enum(COMPARTMENTS);
export type Compartment = z.infer<typeof CompartmentSchema>;

export const COMPARTMENT_PRIORITY: Record<Compartment, number> = {
  safety_constraints: 5,
  active_task: 4,
  operator_preferences: 3,
  project_background: 2,
  ambient_knowledge: 1,
};

export const COMPARTMENT_TITLES: Record<Compartment, string> = {
  safety_constraints: "Safety constraints",
  active_task: "Active task",
  operator_preferences: "Operator preferences",
  project_background: "Project background",
  ambient_knowledge: "Ambient knowledge",
};

export type BudgetCaps = Record<Compartment, number>;

export const MIN_ITEM_PRIORITY = 1;
export const MAX_ITEM_PRIORITY = 5;
export const DEFAULT_ITEM_PRIORITY = 3;

export const BudgetItemSchema = z.object({
  id: z.string(),
  compartment: CompartmentSchema,
  text: z.string(),
  /** 1 (least) … 5 (most important) within its compartment. */
  priority: z.int(),
  pinned: z.boolean(),
  createdAt: z.string(),
  usedAt: z.string(),
  tokens: z.int(),
});
export type BudgetItem = z.infer<typeof BudgetItemSchema>;

export const BudgetFileSchema = z.object({
  /** The number in the next item id (`b<n>`): ids are never reused. */
  nextId: z.int(),
  items: z.array(BudgetItemSchema),
});
export type BudgetFile = z.infer<typeof BudgetFileSchema>;

export const EMPTY_BUDGET: BudgetFile = { nextId: 1, items: [] };

export const CompartmentUsageSchema = z.object({
  compartment: CompartmentSchema,
  priority: z.int(),
  cap: z.int(),
  tokens: z.int(),
  items: z.int(),
  pinned: z.int(),
});
export type CompartmentUsage = z.infer<typeof CompartmentUsageSchema>;

export function compartmentUsage(file: BudgetFile, caps: BudgetCaps): CompartmentUsage[] {
  return COMPARTMENTS.map((compartment) => {
    const items = file.items.filter((item) => item.compartment === compartment);
    return {
      compartment,
      priority: COMPARTMENT_PRIORITY[compartment],
      cap: caps[compartment],
      tokens: items.reduce((sum, item) => sum + item.tokens, 0),
      items: items.length,
      pinned: items.filter((item) => item.pinned).length,
    };
  });
}

/**
 * The order automatic eviction takes items in: ambient knowledge first, then by compartment priority
 * (lowest first), lowest item priority, least recently used, oldest. Pinned items and safety constraints
 * are never candidates.
 */
export function evictionOrder(items: readonly BudgetItem[]): BudgetItem[] {
  return items
    .filter((item) => !item.pinned && item.compartment !== "safety_constraints")
    .sort(
      (a, b) =>
        COMPARTMENT_PRIORITY[a.compartment] - COMPARTMENT_PRIORITY[b.compartment] ||
        a.priority - b.priority ||
        a.usedAt.localeCompare(b.usedAt) ||
        a.createdAt.localeCompare(b.createdAt) ||
        idNumber(a.id) - idNumber(b.id),
    );
}

function idNumber(id: string): number {
  return Number(id.slice(1)) || 0;
}

export interface AddRequest {
  compartment: Compartment;
  /** Already redacted. */
  text: string;
  priority?: number;
  pinned?: boolean;
  /** When the compartment would go over its cap: evict its own evictable items (default) or refuse. */
  overCap?: "evict" | "error";
}

export interface AddResult {
  file: BudgetFile;
  item: BudgetItem;
  evicted: BudgetItem[];
}

export function addBudgetItem(file: BudgetFile, request: AddRequest, caps: BudgetCaps, now: Date): AddResult {
  const text = request.text.trim();
  if (text === "") throw new CtxError("USAGE", "a budget item needs some text", { hint: "pass a non-empty text" });
  const priority = request.priority ?? DEFAULT_ITEM_PRIORITY;
  if (!Number.isInteger(priority) || priority < MIN_ITEM_PRIORITY || priority > MAX_ITEM_PRIORITY) {
    throw new CtxError("USAGE", `priority ${priority} is not an integer from 1 to 5`, {
      hint: "1 = least important, 5 = most",
    });
  }
  const { compartment } = request;
  const cap = caps[compartment];
  const tokens = estimateTokens(text);
  if (tokens > cap) {
    throw new CtxError("STORAGE_LIMIT", `the item is ~${tokens} tokens, over the ${compartment} cap of ${cap}`, {
      hint: `shorten it, or raise budget.caps.${compartment} in the config`,
    });
  }
  const used = file.items.filter((item) => item.compartment === compartment).reduce((sum, i) => sum + i.tokens, 0);
  let excess = used + tokens - cap;
  const evicted: BudgetItem[] = [];
  if (excess > 0) {
    const candidates = evictionOrder(file.items.filter((item) => item.compartment === compartment));
    const freeable = candidates.reduce((sum, item) => sum + item.tokens, 0);
    if (request.overCap === "error" || freeable < excess) {
      const why =
        request.overCap === "error"
          ? ""
          : compartment === "safety_constraints"
            ? " (safety constraints are never evicted automatically)"
            : " (what is left is pinned)";
      throw new CtxError(
        "STORAGE_LIMIT",
        `${compartment} holds ~${used} of ${cap} tokens; ~${tokens} more does not fit${why}`,
        { hint: "evict or unpin items of that compartment (ctx_budget list shows them), or raise its cap" },
      );
    }
    for (const candidate of candidates) {
      if (excess <= 0) break;
      evicted.push(candidate);
      excess -= candidate.tokens;
    }
  }
  const at = now.toISOString();
  const item: BudgetItem = {
    id: `b${file.nextId}`,
    compartment,
    text,
    priority,
    pinned: request.pinned === true,
    createdAt: at,
    usedAt: at,
    tokens,
  };
  const gone = new Set(evicted.map((entry) => entry.id));
  return {
    file: { nextId: file.nextId + 1, items: [...file.items.filter((entry) => !gone.has(entry.id)), item] },
    item,
    evicted,
  };
}

export function findBudgetItem(file: BudgetFile, id: string): BudgetItem {
  const item = file.items.find((entry) => entry.id === id);
  if (item === undefined) {
    throw new CtxError("NOT_FOUND", `no budget item ${id}`, {
      hint: "ctx_budget list (or `ctx budget list`) shows the ids",
    });
  }
  return item;
}

export function setBudgetPinned(file: BudgetFile, id: string, pinned: boolean): { file: BudgetFile; item: BudgetItem } {
  const item = { ...findBudgetItem(file, id), pinned };
  return { file: { ...file, items: file.items.map((entry) => (entry.id === id ? item : entry)) }, item };
}

export type EvictRequest = { id: string } | { tokens: number };

/**
 * `{id}`: removes that item (refused when pinned; a safety constraint goes only when named like this).
 * `{tokens}`: frees at least that many tokens in eviction order, or as many as it can.
 */
export function evictBudgetItems(file: BudgetFile, request: EvictRequest): { file: BudgetFile; evicted: BudgetItem[] } {
  let evicted: BudgetItem[];
  if ("id" in request) {
    const item = findBudgetItem(file, request.id);
    if (item.pinned) {
      throw new CtxError("USAGE", `budget item ${item.id} is pinned`, { hint: `unpin it first (unpin ${item.id})` });
    }
    evicted = [item];
  } else {
    evicted = [];
    let freed = 0;
    for (const candidate of evictionOrder(file.items)) {
      if (freed >= request.tokens) break;
      evicted.push(candidate);
      freed += candidate.tokens;
    }
  }
  const gone = new Set(evicted.map((entry) => entry.id));
  return { file: { ...file, items: file.items.filter((entry) => !gone.has(entry.id)) }, evicted };
}

/** Most important first: safety constraints, then pinned items, then compartment, item priority, recency. */
export function assemblyOrder(items: readonly BudgetItem[]): BudgetItem[] {
  const rank = (item: BudgetItem) => (item.compartment === "safety_constraints" ? 2 : item.pinned ? 1 : 0);
  return [...items].sort(
    (a, b) =>
      rank(b) - rank(a) ||
      COMPARTMENT_PRIORITY[b.compartment] - COMPARTMENT_PRIORITY[a.compartment] ||
      b.priority - a.priority ||
      b.usedAt.localeCompare(a.usedAt) ||
      idNumber(a.id) - idNumber(b.id),
  );
}

export const AssemblySchema = z.object({
  text: z.string(),
  tokens: z.int(),
  /** Item ids rendered, in assembly order; `omitted`: those that did not fit. */
  included: z.array(z.string()),
  omitted: z.array(z.string()),
});
export type Assembly = z.infer<typeof AssemblySchema>;

const ASSEMBLY_HEADER = "## Context budget (kept by ctx_budget)";

/**
 * The items that fit within `maxTokens` (the estimate of the whole rendered text, headings included), in
 * assembly order, rendered grouped by compartment. Empty text when nothing is kept or nothing fits.
 */
export function assembleBudget(file: BudgetFile, maxTokens: number): Assembly {
  const chosen: BudgetItem[] = [];
  const omitted: string[] = [];
  for (const item of assemblyOrder(file.items)) {
    if (estimateTokens(renderBudget([...chosen, item])) <= maxTokens) chosen.push(item);
    else omitted.push(item.id);
  }
  const text = renderBudget(chosen);
  return { text, tokens: estimateTokens(text), included: chosen.map((item) => item.id), omitted };
}

function renderBudget(items: readonly BudgetItem[]): string {
  if (items.length === 0) return "";
  const blocks = [ASSEMBLY_HEADER];
  for (const compartment of COMPARTMENTS) {
    const mine = items.filter((item) => item.compartment === compartment);
    if (mine.length === 0) continue;
    blocks.push(`### ${COMPARTMENT_TITLES[compartment]}\n${mine.map((item) => `- ${item.text}`).join("\n")}`);
  }
  return blocks.join("\n");
}

/** Marks items as used now (assembly keeps least-recently-used ones last in line). */
export function touchBudgetItems(file: BudgetFile, ids: readonly string[], now: Date): BudgetFile {
  const wanted = new Set(ids);
  const at = now.toISOString();
  return { ...file, items: file.items.map((item) => (wanted.has(item.id) ? { ...item, usedAt: at } : item)) };
}
