// Decisions and preferences stated in a conversation, found by wording (deterministic, no model): the
// person's "always / never / prefer / please use / let's go with", the assistant's "I'll use / decided /
// going with / the approach is", and the person's answers to AskUserQuestion. One sentence each.

import { collapseWhitespace, truncateText } from "../transcript/text.ts";
import { CONTEXT_STATE_LIMITS, type Statement } from "./schema.ts";

export type StatementKind = "decision" | "preference";

export interface FoundStatement {
  kind: StatementKind;
  text: string;
}

const USER_PREFERENCE = [
  /^(please\s+)?(always|never|don't|do not|avoid|stop)\b/,
  /\b(i|we)\s+(always|never|prefer|want you to|would like you to|'d like you to)\b/,
  /\bprefer(red|ably)?\b/,
  /\bplease\s+(use|keep|write|make|run|add|don't|do not|avoid|stick)\b/,
  /\bmake sure (to|that|you)\b/,
  /\b(you should|you must|you need to|should always|must always)\b.*\b(always|never|not)\b/,
  /\b(use|using)\b.+\b(instead of|rather than)\b/,
];
const USER_DECISION = [
  /\b(let's|lets)\s+(go with|use|keep|stick with|switch to)\b/,
  /\bwe\s+(decided|agreed|chose|will go with|'ll go with)\b/,
  /\b(decided|decision is)\b/,
  /\bgo with\b/,
];
const ASSISTANT_DECISION = [
  /\b(i'll|i will|we'll|we will)\s+(use|go with|switch to|stick with|keep using|adopt)\b/,
  /\b(i|we)\s+(decided|chose|opted)\b/,
  /\bdecided to\b/,
  /\bgoing with\b/,
  /\bthe (approach|plan|fix|solution|strategy|decision) (is|will be)\b/,
  /\b(use|using|switch(ed)? to)\b.+\b(instead of|rather than)\b/,
  /^(so|since|because)\b.*\b(i'll|we'll|i will|we will)\b/,
  /\b(i|we) (don't|do not) need (to|a|an|the)\b/,
];

const MIN_SENTENCE_CHARS = 12;
/** Longer "sentences" are pasted logs or tables, not statements. */
const MAX_SENTENCE_CHARS = 400;

/** The statements in one message's text, in order. */
export function findStatements(text: string, by: "user" | "assistant"): FoundStatement[] {
  const found: FoundStatement[] = [];
  for (const sentence of sentencesOf(text)) {
    const lower = sentence.toLowerCase();
    if (lower.endsWith("?")) continue;
    const kind = classify(lower, by);
    if (kind !== null) found.push({ kind, text: truncateText(sentence, CONTEXT_STATE_LIMITS.statementChars) });
  }
  return found;
}

function classify(lower: string, by: "user" | "assistant"): StatementKind | null {
  if (by === "assistant") return ASSISTANT_DECISION.some((p) => p.test(lower)) ? "decision" : null;
  if (USER_DECISION.some((p) => p.test(lower))) return "decision";
  if (USER_PREFERENCE.some((p) => p.test(lower))) return "preference";
  return null;
}

/** Prose sentences: code blocks, quoted lines and harness tags removed; a slash command keeps its arguments. */
export function sentencesOf(text: string): string[] {
  const prose = text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/(```|~~~)[\s\S]*?(\1|$)/g, "\n")
    .replace(/<command-args>([\s\S]*?)<\/command-args>/g, "\n$1\n")
    .replace(/<([a-z][\w-]*)(\s[^>]*)?>[\s\S]*?<\/\1>/g, "\n");
  const sentences: string[] = [];
  for (const rawLine of prose.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith(">") || line.startsWith("|")) continue;
    const body = line.replace(/^(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)+/, "");
    for (const part of body.split(/(?<=[.!?])\s+(?=["'`(*A-Z0-9])/)) {
      const sentence = collapseWhitespace(part.replace(/\*\*/g, ""));
      if (sentence.length >= MIN_SENTENCE_CHARS && sentence.length <= MAX_SENTENCE_CHARS) sentences.push(sentence);
    }
  }
  return sentences;
}

/**
 * The person's messages as the compaction summary lists them ("All user messages:"), so preferences
 * stated before a compaction survive a state built from the entries after it.
 */
export function userMessagesInCompactSummary(summary: string): string[] {
  const start = summary.search(/all user messages:?\s*\n/i);
  if (start < 0) return [];
  const section = summary.slice(start).split("\n").slice(1);
  const messages: string[] = [];
  for (const line of section) {
    if (/^\s*\d+\.\s+\S.*:\s*$/.test(line)) break;
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item?.[1] === undefined) continue;
    const quoted = /^"(.*)"/.exec(item[1].trim());
    messages.push(quoted?.[1] ?? item[1].trim());
  }
  return messages;
}

/** "question → answer" for each answer the person gave to AskUserQuestion. */
export function answersOfQuestion(toolUseResult: unknown, resultText: string): string[] {
  const pairs: [string, string][] = [];
  const answers = (toolUseResult as { answers?: unknown } | null | undefined)?.answers;
  if (answers !== null && typeof answers === "object" && !Array.isArray(answers)) {
    for (const [question, answer] of Object.entries(answers)) {
      const text = Array.isArray(answer) ? answer.map(String).join(", ") : String(answer);
      pairs.push([question, text]);
    }
  } else {
    // Older results hold only the text: `User has answered your questions: "Q"="A", "Q2"="A2". …`
    for (const match of resultText.matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)) {
      pairs.push([match[1] ?? "", match[2] ?? ""]);
    }
  }
  return pairs
    .filter(([, answer]) => answer.trim() !== "")
    .map(([question, answer]) =>
      truncateText(
        `${truncateText(collapseWhitespace(question), 150)} → ${collapseWhitespace(answer)}`,
        CONTEXT_STATE_LIMITS.statementChars,
      ),
    );
}

/** Adds a statement: a repeat moves to the end (newest last), the oldest fall off past the limit. */
export function addStatement(list: Statement[], statement: Statement, limit: number = CONTEXT_STATE_LIMITS.statements) {
  const key = statementKey(statement.text);
  const existing = list.findIndex((item) => statementKey(item.text) === key);
  if (existing >= 0) list.splice(existing, 1);
  list.push(statement);
  if (list.length > limit) list.splice(0, list.length - limit);
}

function statementKey(text: string): string {
  return collapseWhitespace(text.toLowerCase()).replace(/[\s.!…]+$/, "");
}
