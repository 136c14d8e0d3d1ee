// The input and result shared by ctx_restore and ctx_snapshot_restore: the saved state rendered as text
// within a budget (./context-tools.ts), plus where it came from and what it holds as structuredContent.
import * as z from "zod/mini";
import { RESTORE_SECTIONS, type RestoreMode, type RestoreSection } from "../../core/context/restore-text.ts";
import { countState, StateCountsSchema } from "../../core/context/schema.ts";
import { type RestoreSource, restoreContext } from "../../store/context/operations.ts";
import type { ServerDeps } from "../deps.ts";
import { contextOpsDeps, maxCharsFor } from "./context-tools.ts";

const RESTORE_MODES = ["full", "summary", "selective"] as const;

export const RestoreRenderInputShape = {
  mode: z
    .optional(z.enum(RESTORE_MODES))
    .check(
      z.describe(
        "summary (default): task, todos, plan, decisions, preferences, files, failures, under 10,000 characters. " +
          "full: also the conversation since the last compaction, up to 80,000 characters. " +
          "selective: only `sections`.",
      ),
    ),
  sections: z
    .optional(z.array(z.enum(RESTORE_SECTIONS)).check(z.minLength(1)))
    .check(z.describe("Sections for selective mode (given alone, they imply it).")),
};

export const RestoreOutputSchema = z.object({
  found: z.boolean(),
  mode: z.enum(RESTORE_MODES),
  origin: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  savedAt: z.nullable(z.string()),
  /** Length of the rendered text. */
  chars: z.int(),
  counts: z.nullable(StateCountsSchema),
});
export type RestoreOutput = z.infer<typeof RestoreOutputSchema>;

export interface RenderRequest {
  mode?: RestoreMode | undefined;
  sections?: RestoreSection[] | undefined;
}

/** The restored text and its facts; `found: false` (and no text) when nothing is saved there. */
export async function renderRestore(
  deps: ServerDeps,
  source: RestoreSource,
  request: RenderRequest,
): Promise<{ text: string; output: RestoreOutput }> {
  const mode = request.mode ?? (request.sections === undefined ? "summary" : "selective");
  const restored = await restoreContext(contextOpsDeps(deps), source, {
    mode,
    maxChars: maxCharsFor(mode, deps),
    ...(request.sections === undefined ? {} : { sections: request.sections }),
  });
  if (restored === null) {
    return {
      text: "",
      output: { found: false, mode, origin: null, sessionId: null, savedAt: null, chars: 0, counts: null },
    };
  }
  return {
    text: restored.text,
    output: {
      found: true,
      mode,
      origin: restored.origin,
      sessionId: restored.state.sessionId,
      savedAt: restored.state.extractedAt,
      chars: restored.text.length,
      counts: countState(restored.state),
    },
  };
}
