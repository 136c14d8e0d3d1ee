// Folds many per-message summaries into one aggregate of bounded size: one line per message while that fits,
// else the lines that carry the most (requests, errors, decisions, paths) in their original order, plus the
// files the dropped lines named. Deterministic; used for the oldest layer of an assembly.
import { truncateText } from "../transcript/text.ts";
import { pathsIn, scoreUnit } from "./facts.ts";
import type { MessageKind, MessageRole } from "./messages.ts";

export interface FoldItem {
  role: MessageRole;
  kind: MessageKind;
  text: string;
}

const PREFIX: Record<MessageKind, string> = {
  prompt: "User",
  reply: "Assistant",
  "tool-result": "Result",
  "compact-summary": "Earlier summary",
};
const MAX_LINE_CHARS = 300;

export function foldSummaries(items: readonly FoldItem[], maxChars: number): string {
  if (maxChars <= 0) return "";
  const lines = items.map((item) => ({
    item,
    text: `${PREFIX[item.kind]}: ${truncateText(item.text.replace(/\s*\n\s*/g, "; "), MAX_LINE_CHARS)}`,
  }));
  const whole = lines.map((line) => line.text).join("\n");
  if (whole.length <= maxChars) return whole;

  const factsBudget = Math.round(maxChars * 0.2);
  const budget = maxChars - factsBudget;
  const chosen = new Set<number>();
  let used = 0;
  const take = (index: number, limit: number) => {
    const length = (lines[index]?.text.length ?? 0) + 1;
    if (used + length > limit) return;
    chosen.add(index);
    used += length;
  };
  // The person's requests and Claude Code's own compaction summary frame everything else: taken first
  // (newest first, up to half the budget), then the densest of the rest.
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const kind = lines[index]?.item.kind;
    if (kind === "prompt" || kind === "compact-summary") take(index, budget / 2);
  }
  const ranked = lines
    .map((line, index) => ({
      index,
      density:
        scoreUnit(line.item.text, { role: line.item.role, contextTerms: new Set() }).score /
        Math.sqrt(Math.max(line.text.length, 20)),
    }))
    .filter(({ index }) => !chosen.has(index))
    .sort((a, b) => b.density - a.density);
  for (const { index } of ranked) take(index, budget);
  const kept = lines.filter((_, index) => chosen.has(index)).map((line) => line.text);
  const keptText = kept.join("\n");
  const files: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (chosen.has(index)) continue;
    for (const path of pathsIn(line.text)) if (!keptText.includes(path) && !files.includes(path)) files.push(path);
  }
  let filesLine = "";
  for (const path of files) {
    const next = filesLine === "" ? `Also mentioned: ${path}` : `${filesLine}, ${path}`;
    if (next.length > factsBudget) break;
    filesLine = next;
  }
  const omitted = lines.length - kept.length;
  const note = omitted > 0 ? `(${omitted} of ${lines.length} earlier messages left out of this fold)` : "";
  return [...kept, filesLine, note].filter((line) => line !== "").join("\n");
}
