// The stub Claude's "chaos" mode (bridge-chaos.ts): answers fast, deterministically per message, so replies can be
// matched to messages whatever the bridge does. Every line of an answer starts with the message's id (`MSG-…`, found
// in the prompt), so every chat message the bridge cuts the reply into carries it. Parts 1..N-1 of a long message get
// a one-line acknowledgement, the last part (or a short message) an answer of 200-2,800 characters.
// Usage grows like a real session's: a fixed base for a new session (Claude Code's own system prompt) plus the seed,
// then each prompt at ~3.2 characters a token and each answer at 4, kept per session in STUB_CLAUDE_STATE/<session>;
// a part of a long message also costs twice its tokens again (Claude reading what the paste points at: in issue #22
// a 15,000-character part took a session from 99,755 to 179,298 tokens), so real usage outruns the bridge's estimate.
// A later part of a long message that reaches a session which never saw the part before it, and whose seed does not
// carry the message, is an orphaned part (issue #22, break 2): one line per case in STUB_CLAUDE_ORPHANS.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const NEW_SESSION_TOKENS = 12_000;
const WORDS = "the log shows a retry after the deploy so check config disk queue service token build test node".split(
  " ",
);

function hashOf(text) {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

function readState(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** The answer's lines: each starts with the id, ~70 characters, `length` characters in all. */
function answerLines(id, length) {
  const lines = [];
  let hash = hashOf(id);
  let total = 0;
  for (let line = 1; total < length; line += 1) {
    const words = [];
    for (let i = 0; i < 8; i += 1) {
      hash = Math.imul(hash ^ (hash >>> 13), 1274126177) >>> 0;
      words.push(WORDS[hash % WORDS.length]);
    }
    const text = `${id} line ${line}: ${words.join(" ")}.`;
    lines.push(text);
    total += text.length + 1;
  }
  return lines.join("\n");
}

/** The stub's answer to part `index` of `total` of message `id` (1-based); the same in every session. */
export function chaosReplyText(id, index, total) {
  return index < total ? `${id} got part ${index} of ${total}.` : answerLines(id, 200 + (hashOf(`${id}!`) % 2_600));
}

export function chaosAnswer({ prompt, sessionId, seed, env }) {
  const id = /MSG-[0-9a-z-]+/.exec(prompt)?.[0] ?? "MSG-none";
  // planPromptParts' headers: "…\n\nPart 1 of N:\n\n" opens a long message, "(part i of N):" continues it.
  const head = prompt.slice(0, 400);
  const part = /\n\nPart (\d+) of (\d+):\n/.exec(head) ?? /\(part (\d+) of (\d+)\):/.exec(head);
  const index = part === null ? 1 : Number(part[1]);
  const total = part === null ? 1 : Number(part[2]);
  const stateFile = env.STUB_CLAUDE_STATE ? join(env.STUB_CLAUDE_STATE, sessionId) : null;
  const state = (stateFile === null ? null : readState(stateFile)) ?? {
    tokens: NEW_SESSION_TOKENS + Math.ceil(seed.length / 4),
    lastPart: {},
  };
  if (index > 1 && state.lastPart[id] !== index - 1 && !seed.includes(id) && env.STUB_CLAUDE_ORPHANS) {
    appendFileSync(env.STUB_CLAUDE_ORPHANS, `${id} part ${index} of ${total}\n`);
  }
  state.lastPart[id] = index;
  const text = chaosReplyText(id, index, total);
  const promptTokens = Math.ceil(prompt.length / 3.2) * (total > 1 ? 3 : 1);
  const usage = {
    input_tokens: 50,
    cache_creation_input_tokens: promptTokens,
    cache_read_input_tokens: state.tokens,
    output_tokens: Math.ceil(text.length / 4),
  };
  state.tokens += 50 + promptTokens + usage.output_tokens;
  if (stateFile !== null) writeFileSync(stateFile, JSON.stringify(state));
  return { text, usage };
}
