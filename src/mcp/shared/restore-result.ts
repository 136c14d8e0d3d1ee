// The input and rendering shared by ctx_restore and ctx_snapshot_restore: the saved state rendered as text
// within a budget (./context-tools.ts), plus where it came from and what it holds as structuredContent
// (RestoreReportSchema, the CLI's `--json` restore output too).
import * as z from "zod/mini";
import {
  RESTORE_MODES,
  RESTORE_SECTIONS,
  type RestoreMode,
  type RestoreSection,
} from "../../core/context/restore-text.ts";
import {
  type RestoreReport,
  type RestoreSource,
  restoreContext,
  restoreReportOf,
} from "../../store/context/restore.ts";
import type { ServerDeps } from "../deps.ts";
import { contextOpsDeps, maxCharsFor } from "./context-tools.ts";

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

export interface RenderRequest {
  mode?: RestoreMode | undefined;
  sections?: RestoreSection[] | undefined;
}

/** The restored text and the report on it; `found: false` (and no text) when nothing is saved there. */
export async function renderRestore(
  deps: ServerDeps,
  source: RestoreSource,
  request: RenderRequest,
): Promise<{ text: string; report: RestoreReport }> {
  const mode = request.mode ?? (request.sections === undefined ? "summary" : "selective");
  const render = { mode, maxChars: maxCharsFor(mode, deps) };
  const restored = await restoreContext(contextOpsDeps(deps), source, {
    ...render,
    ...(request.sections === undefined ? {} : { sections: request.sections }),
  });
  return { text: restored?.text ?? "", report: restoreReportOf(restored, render) };
}
