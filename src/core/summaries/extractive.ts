// The default summariser: offline, deterministic, extractive. A message is cut into units (sentences, bullets,
// tool gists, code blocks reduced to their signature lines), each unit is scored for the facts it carries
// (facts.ts) and for what it shares with the neighbouring messages (Smart Context), and the densest units
// are kept, in their original order, up to about a quarter of the message. Paths and identifiers that only
// the dropped units held are listed at the end, so a summary rarely loses a file name.
import { truncateText } from "../transcript/text.ts";
import { identifiersIn, pathsIn, scoreUnit, shortenPath, termsOf } from "./facts.ts";
import type { SummaryMessage } from "./messages.ts";

export const EXTRACTIVE_ALGORITHM = "extractive-1";

export interface ExtractiveOptions {
  /** Target share of the original length (the issue asks for 20-30%). */
  ratio?: number;
}

export interface SummaryRequest {
  message: SummaryMessage;
  before: SummaryMessage | null;
  after: SummaryMessage | null;
}

export const DEFAULT_RATIO = 0.25;
/** Messages up to this long are their own summary. */
const KEEP_WHOLE_CHARS = 100;
const TOOL_RESULT_SHARE = 0.5;
/** No summary is cut below this (a long message's first fact needs room). */
const MIN_SUMMARY_CHARS = 90;
const MAX_UNIT_CHARS = 220;
const MAX_GIST_CHARS = 90;
const SHORT_REPLY_CHARS = 40;
const TOOL_GIST = /^[A-Z][A-Za-z]+(?:\(.*\))?$/;

interface Unit {
  text: string;
  index: number;
  /** Always kept: tool gists and a prompt's opening request. */
  pinned: boolean;
}

export function summarizeExtractive(request: SummaryRequest, options: ExtractiveOptions = {}): string {
  const { message } = request;
  const text = message.text.trim();
  const note = referenceNote(request);
  if (text.length <= KEEP_WHOLE_CHARS) return note === null ? text : `${text} ${note}`;
  // The person's answers to AskUserQuestion are decisions: kept whole.
  if (message.kind === "tool-result" && text.startsWith("User has answered")) return truncateText(text, 600);
  // A tool result is evidence, not conversation: its first line, errors and paths are what later turns need.
  const ratio = (options.ratio ?? DEFAULT_RATIO) * (message.kind === "tool-result" ? TOOL_RESULT_SHARE : 1);
  const budget = Math.max(MIN_SUMMARY_CHARS, Math.round(text.length * ratio));
  const units = unitsOf(text, message);
  const contextTerms = new Set<string>();
  for (const neighbour of [request.before, request.after]) {
    if (neighbour !== null) for (const term of neighbourTerms(neighbour)) contextTerms.add(term);
  }
  const scored = units.map((unit) => {
    const { score } = scoreUnit(unit.text, { role: message.role, contextTerms });
    // Density: facts per character, so one long sentence does not crowd out three short telling ones.
    return { unit, density: score / Math.sqrt(Math.max(unit.text.length, 20)) };
  });
  const chosen = new Set<number>();
  let used = 0;
  for (const { unit } of scored) {
    // Tool calls are what the turn did: kept even past the budget (each is cut to a short gist).
    if (unit.pinned && (used + unit.text.length <= budget || TOOL_GIST.test(unit.text))) {
      chosen.add(unit.index);
      used += unit.text.length + 1;
    }
  }
  const ranked = scored.filter(({ unit }) => !chosen.has(unit.index)).sort((a, b) => b.density - a.density);
  for (const { unit } of ranked) {
    if (used >= budget) break;
    if (used + unit.text.length > budget * 1.15 && chosen.size > 0) continue;
    chosen.add(unit.index);
    used += unit.text.length + 1;
  }
  const kept = units.filter((unit) => chosen.has(unit.index)).map((unit) => unit.text);
  const tail = missingFacts(units, chosen, Math.max(50, Math.round(budget * 0.25)));
  const parts = [...kept, ...(tail === "" ? [] : [tail]), ...(note === null ? [] : [note])];
  return parts.join("\n");
}

/** Each message is the neighbour of two others: its terms are worked out once (a cache, not state). */
const TERMS_CACHE = new WeakMap<SummaryMessage, Set<string>>();
const NEIGHBOUR_CHARS = 4_000;

function neighbourTerms(message: SummaryMessage): Set<string> {
  let terms = TERMS_CACHE.get(message);
  if (terms === undefined) {
    terms = termsOf(message.text.slice(0, NEIGHBOUR_CHARS));
    TERMS_CACHE.set(message, terms);
  }
  return terms;
}

/** Units of a message: code blocks reduced, tool gists kept whole, prose cut into sentences and bullets. */
function unitsOf(text: string, message: SummaryMessage): Unit[] {
  const units: Unit[] = [];
  const push = (unitText: string, pinned = false) => {
    const trimmed = unitText.trim();
    if (trimmed !== "") units.push({ text: truncateText(trimmed, MAX_UNIT_CHARS), index: units.length, pinned });
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence !== null) {
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? "").trim().startsWith(fence[1] ?? "```")) body.push(lines[j++] ?? "");
      push(codeGist(fence[2] ?? "", body));
      i = j;
      continue;
    }
    if (message.role === "assistant" && TOOL_GIST.test(line.trim())) {
      push(shortenGist(line.trim()), true);
      continue;
    }
    if (message.kind === "tool-result" && units.length === 0) {
      const [first, ...rest] = sentencesOf(line);
      push(first ?? "", true);
      for (const sentence of rest) push(sentence);
      continue;
    }
    for (const sentence of sentencesOf(line)) push(sentence, message.kind === "prompt" && units.length === 0);
  }
  return units;
}

/** A long tool gist keeps its file names: long paths lose their leading folders first, then the gist is cut. */
function shortenGist(gist: string): string {
  if (gist.length <= MAX_GIST_CHARS) return gist;
  let short = gist;
  for (const path of pathsIn(gist)) if (path.startsWith("/")) short = short.replace(path, shortenPath(path));
  return truncateText(short, MAX_GIST_CHARS);
}

/** A code block as its language, first line and signature-like lines: `[code ts] export function f(…`. */
function codeGist(language: string, body: string[]): string {
  const code = body.map((line) => line.trim()).filter((line) => line !== "");
  const strong = code.filter((line) =>
    /^(export |pub |public |private |protected |async |def |defp |defmodule |function |class |interface |type |fn |func |impl |struct |module |enum |trait )/.test(
      line,
    ),
  );
  const weak = code.filter((line) => /^(const |let |import |from |use |alias |require )/.test(line));
  const signatures = [...strong, ...weak];
  const shown = [...new Set([code[0] ?? "", ...signatures.slice(0, 3)])].filter((line) => line !== "");
  return `[code${language === "" ? "" : ` ${language}`}, ${code.length} lines] ${shown.map((line) => truncateText(line, 80)).join(" | ")}`;
}

function sentencesOf(line: string): string[] {
  if (/^\s*([-*+]|\d+[.)]|#{1,6}|>|\|)\s/.test(line)) return [line];
  return line.split(/(?<=[.!?。])\s+(?=[A-Z0-9`"'(\p{Lo}])/u);
}

/** Paths and identifiers that only dropped units mention, as one short line. */
function missingFacts(units: Unit[], chosen: ReadonlySet<number>, maxChars: number): string {
  const keptText = units
    .filter((unit) => chosen.has(unit.index))
    .map((unit) => unit.text)
    .join("\n");
  const facts: string[] = [];
  for (const unit of units) {
    if (chosen.has(unit.index)) continue;
    for (const fact of [...pathsIn(unit.text), ...identifiersIn(unit.text)]) {
      if (!keptText.includes(fact) && !facts.includes(fact)) facts.push(fact);
    }
  }
  if (facts.length === 0) return "";
  let line = "Also:";
  for (const fact of facts) {
    if (line.length + fact.length + 2 > maxChars) break;
    line += `${line === "Also:" ? " " : ", "}${fact}`;
  }
  return line === "Also:" ? "" : line;
}

/**
 * What a short reply refers to (Smart Context): "yes" or "do that" means little alone, so a short prompt
 * carries the last question (or sentence) of the assistant message before it.
 */
function referenceNote(request: SummaryRequest): string | null {
  const { message, before } = request;
  if (message.kind !== "prompt" || message.text.trim().length > SHORT_REPLY_CHARS || before === null) return null;
  const sentences = before.text
    .split("\n")
    .filter((line) => !TOOL_GIST.test(line.trim()))
    .flatMap(sentencesOf)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
  const question = [...sentences].reverse().find((sentence) => sentence.endsWith("?")) ?? sentences.at(-1);
  return question === undefined ? null : `(in reply to: ${truncateText(question, 120)})`;
}
