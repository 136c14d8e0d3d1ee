// What became of a fork, read from its own transcript (docs/forks.md "Outcome"). A fork made by
// `claude --resume <id> --fork-session` starts with a copy of its source: the copied lines keep their uuids and
// timestamps, and the copied assistant lines carry `requestSessionId` = the session they were first written in
// (checked on Claude Code 2.1.330, tests/e2e/forks.test.ts). The fork's own part is what follows the last such line
// (or the offered fork point, when the copy ends on a prompt). Fed one entry at a time, so a transcript of any size
// streams through in bounded memory. Pure.
import type { TranscriptEntry } from "../transcript/entries.ts";
import { contentBlocks } from "../transcript/text.ts";

/** A fork with at most this many prompts of its own, nothing modified and no fork of its own was abandoned:
 *  one or two prompts are a look around ("what was this about?"), a third is work on it. */
export const ABANDONED_TURNS = 2;
/** A fork with at least this many prompts of its own paid off even without an edit (a long review, a plan). */
export const PAID_OFF_TURNS = 6;
/** Files listed per fork: a fork that rewrote a thousand files is told by its count. */
export const LISTED_FILES = 50;

/** The tools that change a file, with the input field that names it. Bash is left out: `sed -i`, `>` and a
 *  script's own writes cannot be told from a read by its text, and a guess would count reads as work. */
const MODIFYING_TOOLS: Record<string, string> = {
  Edit: "file_path",
  MultiEdit: "file_path",
  Write: "file_path",
  NotebookEdit: "notebook_path",
};

export interface ForkOwnPart {
  /** The person's prompts after the copy (tool results and meta lines are not prompts). */
  prompts: number;
  /** Assistant replies after the copy (one per API reply). */
  replies: number;
  /** Distinct files the fork's own tool calls modified (a call whose result was an error changed nothing). */
  filesModified: string[];
  filesModifiedCount: number;
  firstAt: number | null;
  lastAt: number | null;
  /** The offered fork point found among the copied lines (the fork was cut there), else null. */
  sawPoint: string | null;
}

export type ForkVerdict = "paid-off" | "abandoned" | "continued";

export interface ForkOutcomeReader {
  add(entry: TranscriptEntry): void;
  finish(): ForkOwnPart;
}

/** `points`: the fork points ctx offered for the fork's source (the copy ends at one when the fork was cut there). */
export function createForkOutcomeReader(sessionId: string, points: ReadonlySet<string>): ForkOutcomeReader {
  let own = emptyOwn();
  let sawPoint: string | null = null;
  // Tool calls of the own part waiting for their result: id -> file.
  let pending = new Map<string, string>();
  const files = new Set<string>();
  const reset = () => {
    own = emptyOwn();
    pending = new Map();
    files.clear();
  };
  return {
    add(entry) {
      if (entry.type !== "user" && entry.type !== "assistant") return;
      if (entry.isSidechain === true) return;
      const loose = entry as { uuid?: unknown; requestSessionId?: unknown };
      const copied =
        typeof loose.requestSessionId === "string" &&
        loose.requestSessionId !== "" &&
        loose.requestSessionId !== sessionId;
      const atPoint = typeof loose.uuid === "string" && points.has(loose.uuid);
      if (atPoint) sawPoint = loose.uuid as string;
      if (copied || atPoint) {
        // Everything so far was the copy: the own part starts after this line.
        reset();
        return;
      }
      const at = Date.parse(entry.timestamp ?? "");
      if (Number.isFinite(at)) {
        own.firstAt ??= at;
        own.lastAt = at;
      }
      if (entry.type === "assistant") {
        if (entry.isApiErrorMessage === true || entry.message.model === "<synthetic>") return;
        own.replies++;
        for (const block of contentBlocks(entry)) {
          if (block.type !== "tool_use" || block.name === undefined) continue;
          const field = MODIFYING_TOOLS[block.name];
          const input = block.input as Record<string, unknown> | undefined;
          const path = field === undefined ? undefined : input?.[field];
          if (typeof path === "string" && path !== "") pending.set(block.id ?? `#${pending.size}`, path);
        }
        return;
      }
      if (entry.isMeta === true || entry.isCompactSummary === true) return;
      let prompt = false;
      for (const block of contentBlocks(entry)) {
        if (block.type === "tool_result") {
          const path = block.tool_use_id === undefined ? undefined : pending.get(block.tool_use_id);
          if (path !== undefined && block.is_error !== true) files.add(path);
          if (block.tool_use_id !== undefined) pending.delete(block.tool_use_id);
        } else if (block.type === "text" && (block.text ?? "").trim() !== "") prompt = true;
      }
      if (prompt && !isNoise(entry)) own.prompts++;
    },
    finish() {
      // A call with no result yet (the session still running, or killed) counts: Claude Code writes the result after.
      for (const path of pending.values()) files.add(path);
      const list = [...files];
      return { ...own, filesModified: list.slice(0, LISTED_FILES), filesModifiedCount: list.length, sawPoint };
    },
  };
}

/** What a fork came to: paid off (modified files, was forked again, or went on), abandoned, or in between. */
export function forkVerdict(own: ForkOwnPart, forkedAgain: boolean): ForkVerdict {
  if (own.filesModifiedCount > 0 || forkedAgain || own.prompts >= PAID_OFF_TURNS) return "paid-off";
  return own.prompts <= ABANDONED_TURNS ? "abandoned" : "continued";
}

function emptyOwn(): Omit<ForkOwnPart, "filesModified" | "filesModifiedCount" | "sawPoint"> {
  return { prompts: 0, replies: 0, firstAt: null, lastAt: null };
}

/** Command output and notices Claude Code writes as user lines: not the person's prompts. */
function isNoise(entry: TranscriptEntry): boolean {
  if (entry.type !== "user") return false;
  const first =
    contentBlocks(entry)
      .find((block) => block.type === "text")
      ?.text?.trimStart() ?? "";
  return /^<(local-command-|bash-std|task-notification)|^\[Request interrupted by user/.test(first);
}
