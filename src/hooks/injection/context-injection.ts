// The text SessionStart `compact` (and the UserPromptSubmit fallback) inject: what the compaction summary
// lost when the audit ran (hooks/compaction-audit.ts), then the CLAUDE.md rules marked
// (ENFORCED)/(CRITICAL) verbatim first (they are cut only when they alone exceed the limit), then the
// assembled context budget (chosen by hand, so before the extracted state; at most budget.injectMaxTokens),
// then the saved state in the room left (with its conversation assembled from summaries where the caller
// loaded them), all within Claude Code's
// additionalContext limit, carrying the injection's token so its arrival can be checked in the transcript.
import { assembleBudget, type BudgetFile } from "../../core/budget/compartments.ts";
import type { ContextState } from "../../core/context/extract.ts";
import type { Injection } from "../../core/context/injection.ts";
import { renderRestoreText } from "../../core/context/restore-text.ts";
import { CHARS_PER_TOKEN } from "../../core/estimate.ts";
import type { AssemblyPolicy } from "../../core/summaries/assemble.ts";
import { renderRestoreWithConversation } from "../../core/summaries/conversation-part.ts";
import type { SummaryRecord } from "../../core/summaries/sidecar.ts";

export interface InjectionExtras {
  /** The rules block (already redacted), or "" when there are none or re-injection is off. */
  rulesText: string;
  budget: BudgetFile | null;
  /** Token cap of the assembled budget (config budget.injectMaxTokens). */
  budgetMaxTokens: number;
  /** The compaction audit's lost items (core/audit/report.ts renderLostBlock): the text leads with them. */
  lostText?: string;
  /**
   * The session's stored summaries and the assembly policy: the state then ends with its conversation
   * assembled from them (core/summaries/conversation-part.ts). Given only where the state is loaded anyway.
   */
  summaries?: { stored: Readonly<Record<string, SummaryRecord>>; policy: AssemblyPolicy };
}

export const NO_EXTRAS: InjectionExtras = { rulesText: "", budget: null, budgetMaxTokens: 0 };

/** Below this many characters the saved state is not worth rendering; it is named instead. */
const MIN_STATE_CHARS = 300;

export function compactInjectionText(
  state: ContextState,
  injection: Injection | null,
  maxChars: number,
  extras: InjectionExtras = NO_EXTRAS,
): string {
  const token = injection?.token ?? null;
  const origin = injection?.snapshotId
    ? `snapshot ${injection.snapshotId}, saved just before this compaction`
    : "the state saved before this compaction";
  const tokenLine = token === null ? "" : `\n[${token}]`;
  let room = maxChars - tokenLine.length;
  const blocks: string[] = [];
  if (extras.lostText !== undefined && extras.lostText !== "" && extras.lostText.length + 2 <= room) {
    blocks.push(extras.lostText);
    room -= extras.lostText.length + 2;
  }
  if (extras.rulesText !== "") {
    const rules = fitLines(extras.rulesText, room - 2, "- … (more rules: `ctx rules list` shows them all)");
    blocks.push(rules);
    room -= rules.length + 2;
  }
  if (extras.budget !== null && extras.budgetMaxTokens > 0) {
    const budgetChars = Math.min(extras.budgetMaxTokens * CHARS_PER_TOKEN, room - 2);
    const assembly = assembleBudget(extras.budget, Math.floor(budgetChars / CHARS_PER_TOKEN));
    if (assembly.text !== "") {
      blocks.push(assembly.text);
      room -= assembly.text.length + 2;
    }
  }
  if (room >= MIN_STATE_CHARS) {
    const render = { mode: "summary" as const, maxChars: room, origin };
    blocks.push(
      extras.summaries === undefined
        ? renderRestoreText(state, render)
        : renderRestoreWithConversation(state, render, extras.summaries.stored, extras.summaries.policy).text,
    );
  } else {
    const note = "(The saved state is not shown for length: `ctx restore --print` shows it.)";
    if (note.length + 2 <= room) blocks.push(note);
  }
  return blocks.join("\n\n") + tokenLine;
}

/** `text` cut at a line boundary to at most `max` characters, with `marker` saying so. */
function fitLines(text: string, max: number, marker: string): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  let kept = "";
  for (const line of lines) {
    const next = kept === "" ? line : `${kept}\n${line}`;
    if (next.length + marker.length + 1 > max) break;
    kept = next;
  }
  return `${kept}\n${marker}`.slice(0, Math.max(0, max));
}

/** The short "where you left off" for a new session in a project with saved context. */
export function startupInjectionText(
  state: ContextState,
  maxChars: number,
  origin = "the previous session in this project (ctx restore shows more)",
): string {
  return renderRestoreText(state, {
    mode: "selective",
    sections: ["task", "todos", "decisions", "preferences", "files"],
    maxChars,
    origin,
  });
}
