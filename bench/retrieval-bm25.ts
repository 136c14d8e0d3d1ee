// The plain baseline the eval READMEs describe: BM25 over whole sessions (user and assistant text, tool inputs),
// lower-cased alphanumeric tokens, a short stop-word list, k1 1.2, b 0.75. Deliberately independent of ctx's index,
// so it is a fixed floor.
import { readFileSync } from "node:fs";

const STOP_WORDS = new Set(
  (
    "a an and are as at be but by did do does for from had has have he her him his how i if in into is it its " +
    "me my of on or our she so that the their them they this to was we were what when where which who why will " +
    "with you your"
  ).split(" "),
);

export function tokenizePlain(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((token) => !STOP_WORDS.has(token));
}

/**
 * The text of a transcript: every user/assistant text block and every tool call's input (its string values), in
 * order. A line that is not JSON is skipped (the coding split's owner redacted some lines in place).
 */
export function readSessionText(path: string): string {
  const parts: string[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let entry: { message?: { content?: unknown } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    const content = entry.message?.content;
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content as { type?: string; text?: string; input?: unknown }[]) {
        if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
        else if (block.type === "tool_use") parts.push(...stringsOf(block.input));
      }
    }
  }
  return parts.join("\n");
}

/** Every string inside a JSON value (a tool call's input: its command, path, pattern, new text). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

export interface Bm25Document {
  id: string;
  text: string;
}

/** A BM25 ranker over a fixed set of documents (Lucene's non-negative idf). */
export function buildBm25(documents: readonly Bm25Document[], k1 = 1.2, b = 0.75) {
  const docs = documents.map((d) => {
    const tf = new Map<string, number>();
    const tokens = tokenizePlain(d.text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: d.id, tf, length: tokens.length };
  });
  const averageLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
  const documentFrequency = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
  };
  return {
    /** Document ids of `subset` (or all), best first; ties keep corpus order. */
    rank(query: string, subset?: ReadonlySet<string>): string[] {
      const terms = [...new Set(tokenizePlain(query))];
      const scored = docs
        .filter((d) => subset === undefined || subset.has(d.id))
        .map((d, order) => {
          let score = 0;
          for (const term of terms) {
            const f = d.tf.get(term);
            if (f === undefined) continue;
            score += (idf(term) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / averageLength));
          }
          return { id: d.id, score, order };
        });
      scored.sort((x, y) => y.score - x.score || x.order - y.order);
      return scored.map((s) => s.id);
    },
  };
}
