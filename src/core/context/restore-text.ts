// The saved context as text Claude reads: what SessionStart `compact` re-injects, what `ctx_restore`
// returns and what `ctx restore --print` shows. Sections go in priority order and each is trimmed,
// so the text always fits its budget (Claude Code spills additionalContext over 10,000 characters to a
// file). Phrased as facts about the session, not as instructions (prompt-injection defences).
import type { ContextState, Statement } from "./schema.ts";

export const RESTORE_SECTIONS = [
  "task",
  "todos",
  "plan",
  "decisions",
  "preferences",
  "files",
  "failures",
  "conversation",
] as const;
export type RestoreSection = (typeof RESTORE_SECTIONS)[number];
export const RESTORE_MODES = ["full", "summary", "selective"] as const;
export type RestoreMode = (typeof RESTORE_MODES)[number];

export interface RenderOptions {
  mode: RestoreMode;
  /** Hard cap on the text's length in characters. */
  maxChars: number;
  /** Sections for `selective`; ignored otherwise. */
  sections?: readonly RestoreSection[];
  /** A line saying where the text came from, e.g. "snapshot 20261122-… (pre-compact, auto)". */
  origin?: string;
  /**
   * The conversation assembled from summaries (core/summaries/conversation-part.ts), already within its room:
   * it replaces the message-by-message conversation and is shown in `summary` mode too.
   */
  conversationText?: string;
}

/** Everything but the conversation itself. */
const SUMMARY_SECTIONS: readonly RestoreSection[] = RESTORE_SECTIONS.filter((section) => section !== "conversation");

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

function statements(items: readonly Statement[], max: number): string[] {
  return items.slice(-max).map((s) => `- ${clip(s.text, 240)}${s.by === "user" ? " (the user)" : ""}`);
}

function renderSection(state: ContextState, section: RestoreSection, conversationText?: string): string[] {
  if (section === "conversation" && conversationText !== undefined) {
    return conversationText === "" ? [] : conversationText.split("\n");
  }
  switch (section) {
    case "task": {
      const active = state.todos?.items.filter((t) => t.status === "in_progress") ?? [];
      const lastPrompt = [...state.conversation].reverse().find((m) => m.kind === "prompt");
      const lines = active.map((t) => `- ${clip(t.activeForm ?? t.content, 300)}`);
      if (lastPrompt) lines.push(`- last request from the user: "${clip(lastPrompt.text, 600)}"`);
      return lines.length === 0 ? [] : ["## Active task", ...lines];
    }
    case "todos": {
      const items = state.todos?.items ?? [];
      if (items.length === 0) return [];
      const mark = (status: string) => (status === "completed" ? "[x]" : status === "in_progress" ? "[~]" : "[ ]");
      return [`## Todo list (${items.length})`, ...items.map((t) => `- ${mark(t.status)} ${clip(t.content, 300)}`)];
    }
    case "plan": {
      const plan = state.plan;
      if (plan === null || (plan.text === null && plan.filePath === null)) return [];
      const status = plan.approved === true ? "approved" : plan.approved === false ? "rejected" : "proposed";
      const lines = [`## Plan (${status})`];
      if (plan.filePath !== null) lines.push(`Plan file: ${plan.filePath}`);
      if (plan.text !== null) lines.push(plan.text.trim().slice(0, 4_000));
      return lines;
    }
    case "decisions":
      return state.decisions.length === 0 ? [] : ["## Decisions made", ...statements(state.decisions, 15)];
    case "preferences":
      return state.preferences.length === 0
        ? []
        : ["## The user's stated preferences", ...statements(state.preferences, 15)];
    case "files": {
      const files = state.files.slice(-25).reverse();
      if (files.length === 0) return [];
      const describe = (f: ContextState["files"][number]) =>
        `- ${f.path} (${f.lastAction}${f.writes > 0 ? `, ${f.writes} write${f.writes === 1 ? "" : "s"}` : ""}${f.reads > 0 ? `, ${f.reads} read${f.reads === 1 ? "" : "s"}` : ""})`;
      return ["## Files touched recently (newest first)", ...files.map(describe)];
    }
    case "failures":
      return state.tools.failures.length === 0
        ? []
        : ["## Recent tool failures", ...state.tools.failures.map((f) => `- ${f.tool}: ${clip(f.message, 200)}`)];
    case "conversation": {
      const messages = state.conversation.filter((m) => m.kind !== "tool-result");
      if (messages.length === 0) return [];
      const label = (m: (typeof messages)[number]) => (m.kind === "compact-summary" ? "summary" : m.role);
      return [
        `## Conversation since the last compaction (${messages.length} messages${state.conversationOmitted > 0 ? `, ${state.conversationOmitted} older ones omitted` : ""})`,
        ...messages.map((m) => `${label(m)}: ${clip(m.text, 2_000)}`),
      ];
    }
  }
}

/** Renders the state within `maxChars`; sections that do not fit are named at the end instead. */
export function renderRestoreText(state: ContextState, options: RenderOptions): string {
  const wanted =
    options.mode === "full"
      ? RESTORE_SECTIONS
      : options.mode === "summary"
        ? options.conversationText
          ? RESTORE_SECTIONS
          : SUMMARY_SECTIONS
        : (options.sections ?? SUMMARY_SECTIONS);
  const header = [
    `ctx: saved working context of session ${state.sessionId} (project ${state.projectRoot}), extracted ${state.extractedAt}.`,
    ...(options.origin ? [`Source: ${options.origin}.`] : []),
  ].join("\n");
  const footerFor = (left: string[]) =>
    left.length === 0 ? "" : `\n(Not shown for length: ${left.join(", ")}. \`ctx restore --print\` shows everything.)`;

  let text = header;
  const left: string[] = [];
  for (const section of wanted) {
    const lines = renderSection(state, section, options.conversationText);
    if (lines.length === 0) continue;
    const block = `\n\n${lines.join("\n")}`;
    const room = options.maxChars - text.length - footerFor([...left, section]).length;
    if (block.length <= room) {
      text += block;
    } else if (room > 200) {
      // Partly: as many whole lines as fit, then a marker.
      let partial = `\n\n${lines[0]}`;
      for (const line of lines.slice(1)) {
        if (partial.length + line.length + 40 > room) break;
        partial += `\n${line}`;
      }
      text += `${partial}\n- …`;
      left.push(`the rest of ${section}`);
    } else {
      left.push(section);
    }
  }
  return (text + footerFor(left)).slice(0, options.maxChars);
}
