// `.ctx/injection.ctx`'s schema (./injection.ts says what the pending re-injection is for). On its own, so that
// the hooks reading the file check it with the checker compiled from it (./injection-schema.compiled.ts) and
// load no zod.
import * as z from "zod/mini";

export const InjectionSchema = z.object({
  sessionId: z.string(),
  snapshotId: z.nullable(z.string()),
  /** A unique line in the injected text, searched for in the transcript to see whether it arrived. */
  token: z.string(),
  createdAt: z.string(),
  injectedBy: z.nullable(z.enum(["session-start", "user-prompt-submit"])),
  injectedAt: z.nullable(z.string()),
  /** The token was seen in the transcript (or the fallback already injected): nothing more to do. */
  settled: z.boolean(),
  /** The re-injection rendered at PreCompact, so SessionStart only reads this small file (hook budget). */
  text: z.optional(z.nullable(z.string())),
  /**
   * The compaction audit's lost items reached the model (led the SessionStart text, or came with the first
   * prompt after it: Claude Code 2.1.330 runs SessionStart `compact` before the summary exists).
   */
  lostInjected: z.optional(z.boolean()),
});
export type Injection = z.infer<typeof InjectionSchema>;
