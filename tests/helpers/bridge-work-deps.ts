// What createBridgeWork needs, for a test: a journal that keeps nothing, a conversation whose Claude must not be
// reached, one turn at a time and no "working on it" notice. A test passes the poster and the sessions folder and
// overrides what it is about (the retry waits, the limits, a Claude of its own, the log).
import type { BridgeWorkDeps } from "../../src/bridge/bridge-work.ts";
import type { Poster } from "../../src/bridge/poster.ts";

export interface BridgeWorkDepsParts {
  poster: Poster;
  sessionsDir: string;
  journal?: BridgeWorkDeps["journal"];
  outbox?: Partial<Omit<BridgeWorkDeps["outbox"], "poster">>;
  conversation?: Partial<BridgeWorkDeps["conversation"]>;
  outputChunkChars?: number;
  /** Both the outbox's and the work's log, unless the outbox names its own. */
  log?: (line: string) => void;
}

export function bridgeWorkDeps(parts: BridgeWorkDepsParts): BridgeWorkDeps {
  const log = parts.log ?? (() => {});
  return {
    journal: parts.journal ?? { path: "/none", append: async () => {}, compact: async () => {}, close: async () => {} },
    outbox: {
      poster: parts.poster,
      now: () => new Date(),
      deliveryHours: 24,
      retryBaseMs: 1,
      retryMaxMs: 1,
      log,
      ...parts.outbox,
    },
    conversation: {
      sessionsDir: parts.sessionsDir,
      limits: { softLimitTokens: 1, hardLimitTokens: 2, idleMinutes: 1 },
      inputChunkChars: 10,
      windowTokens: 10,
      maxInputBytes: 10,
      runClaude: async () => {
        throw new Error("not reached");
      },
      summarize: async () => ({ summary: "", provider: "none", warnings: [] }),
      redact: (text) => text,
      now: () => new Date(),
      warn: () => {},
      ...parts.conversation,
    },
    concurrency: 1,
    outputChunkChars: parts.outputChunkChars ?? 100,
    workingNoticeSeconds: 0,
    redact: (text) => text,
    now: () => new Date(),
    log,
  };
}
