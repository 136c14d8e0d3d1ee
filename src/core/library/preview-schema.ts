// The session preview (`ctx show --json`, the text of `ctx show`, the picker's pane, the preview ctx_fork_detect
// adds on request): one zod schema each, the types inferred from them. ./preview.ts, which builds the preview,
// imports the types only, so `ctx show` without --json loads no zod.
import * as z from "zod/mini";
import { SessionAnnotationSchema } from "./annotation-schema.ts";

export type { SessionAnnotation } from "./annotation.ts";

/** What the session index knows of the session: shown even when its transcript is gone. */
export const PreviewHeaderSchema = z.object({
  sessionId: z.string(),
  title: z.string(),
  /** The project folder name under ~/.claude/projects. */
  project: z.string(),
  cwd: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  /** ISO dates of its first and last message; null when the index holds none. */
  createdAt: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
  messageCount: z.int(),
  /** Sessions this one was forked from, and forks made from it (core/search/lineage.ts). */
  parents: z.array(z.string()),
  forks: z.array(z.string()),
  transcriptPath: z.nullable(z.string()),
  annotation: z.nullable(SessionAnnotationSchema),
});
export type PreviewHeader = z.infer<typeof PreviewHeaderSchema>;

/** One exchange: a prompt of the person's and what followed it until the next one. Every text bounded, redacted. */
export const PreviewExchangeSchema = z.object({
  /** 1-based position among the session's exchanges. */
  number: z.int(),
  /** The uuid of the prompt's line (null for replies before any prompt, or a line without one). */
  uuid: z.nullable(z.string()),
  /** The uuid of the exchange's last line: `claude --resume … --resume-session-at <it>` forks after this exchange. */
  lastUuid: z.nullable(z.string()),
  timestamp: z.nullable(z.string()),
  /** Empty for what came before the first prompt; a compaction's summary is shown as `(compaction summary)`. */
  prompt: z.string(),
  /** The assistant's text replies, each cut short: the first and the latest; `repliesOmitted` between them were not kept. */
  replies: z.array(z.string()),
  repliesOmitted: z.int(),
  /** Tool calls as gists (`Edit src/a.ts`, `Bash: pnpm test`), repeats counted; `toolsOmitted` more not kept. */
  tools: z.array(z.object({ gist: z.string(), count: z.int() })),
  toolsOmitted: z.int(),
  /** Files the exchange wrote or edited (Write, Edit, MultiEdit, NotebookEdit). */
  files: z.array(z.string()),
  /** The line a search matched (`--at`) is in this exchange. */
  matched: z.boolean(),
});
export type PreviewExchange = z.infer<typeof PreviewExchangeSchema>;

/** The subagents' transcripts (`<session>/subagents/*.jsonl`): how many, and the files they wrote. */
export const PreviewSubagentsSchema = z.object({
  transcripts: z.int(),
  files: z.array(z.string()),
  filesOmitted: z.int(),
});
export type PreviewSubagents = z.infer<typeof PreviewSubagentsSchema>;

/** How reading the transcript went. */
export const PreviewReadSchema = z.object({
  /** `read`; `missing` when the transcript is gone (the index's data is still shown). */
  transcript: z.enum(["read", "missing"]),
  /** Lines that were not a conversation entry ctx reads: malformed, cut short, over the size cap. */
  linesSkipped: z.int(),
  /** `--at` was given: whether a line with that uuid was found; null without `--at`. */
  atFound: z.nullable(z.boolean()),
  /** The transcript is gone and the exchanges were rebuilt from the session index's chunks (its redacted text,
   *  tool calls as gists), core/library/preview-from-chunks.ts. */
  fromIndex: z.boolean(),
});
export type PreviewRead = z.infer<typeof PreviewReadSchema>;

/** `ctx show --json`. */
export const SessionPreviewSchema = z.object({
  header: PreviewHeaderSchema,
  exchanges: z.array(PreviewExchangeSchema),
  subagents: PreviewSubagentsSchema,
  read: PreviewReadSchema,
});
export type SessionPreview = z.infer<typeof SessionPreviewSchema>;
