// ctx_library: the session library (stars, tags, notes), one op per call in the ctx_budget pattern: a union
// discriminated on `op` so each op takes exactly its own fields, advertised as one object. The session defaults to
// the one asking (CLAUDE_CODE_SESSION_ID), so "tag this session" needs no id. New ops add a branch to LibraryInputSchema
// and a case to runLibraryOp.
import * as z from "zod/mini";
import { parseTimeBound } from "../../core/search/fork-query.ts";
import { CtxError } from "../../errors.ts";
import { ForksReportSchema } from "../../search/fork-history-schema.ts";
import { LibraryListingSchema, LibraryUpdateSchema } from "../../search/library-schema.ts";
import { type LibraryDeps, listLibrary, updateLibrary } from "../../search/session-library.ts";
import { defineTool, type ToolReply } from "../define-tool.ts";
import type { ServerDeps } from "../deps.ts";

const FIELDS = {
  session_id: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(200),
      z.describe("A session id or its first characters (from ctx_fork_detect); default: this session."),
    ),
  // Bounded here only against abuse of the protocol; the library's own rules (one word, 40 characters) say why a tag
  // is refused, as an isError the model can act on.
  tags: z
    .array(z.string().check(z.maxLength(200)))
    .check(z.minLength(1), z.maxLength(20), z.describe("tag/untag: one word each; list: only sessions with all.")),
  note: z
    .string()
    .check(z.maxLength(8_192), z.describe("note: one line, at most 4 KB (secrets are redacted); empty clears it.")),
  starred: z.boolean().check(z.describe("list: only starred sessions.")),
  at: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(200),
      z.describe("show: mark the exchange ending at this message uuid (a result's matchUuid from ctx_fork_detect)."),
    ),
};
const FORKS_FIELDS = {
  project: z
    .string()
    .check(z.minLength(1), z.maxLength(500), z.describe('forks: "this", a path, or part of a project folder name.')),
  since: z
    .string()
    .check(z.minLength(1), z.maxLength(40), z.describe("forks: since an ISO date or an age (7d, 3w, 2m, 1y).")),
  limit: z.int().check(z.minimum(1), z.maximum(100), z.describe("forks: the newest this many (default 20).")),
};
export const LIBRARY_OPS = ["star", "unstar", "tag", "untag", "note", "list", "show", "forks"] as const;

/** The real input: a union discriminated on `op`, so each op takes exactly its own fields. */
export const LibraryInputSchema = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("star"), session_id: z.optional(FIELDS.session_id) }),
  z.strictObject({ op: z.literal("unstar"), session_id: z.optional(FIELDS.session_id) }),
  z.strictObject({ op: z.literal("tag"), session_id: z.optional(FIELDS.session_id), tags: FIELDS.tags }),
  z.strictObject({ op: z.literal("untag"), session_id: z.optional(FIELDS.session_id), tags: FIELDS.tags }),
  z.strictObject({ op: z.literal("note"), session_id: z.optional(FIELDS.session_id), note: FIELDS.note }),
  z.strictObject({ op: z.literal("list"), starred: z.optional(FIELDS.starred), tags: z.optional(FIELDS.tags) }),
  z.strictObject({ op: z.literal("show"), session_id: z.optional(FIELDS.session_id), at: z.optional(FIELDS.at) }),
  z.strictObject({
    op: z.literal("forks"),
    project: z.optional(FORKS_FIELDS.project),
    since: z.optional(FORKS_FIELDS.since),
    limit: z.optional(FORKS_FIELDS.limit),
  }),
]);
export type LibraryInput = z.infer<typeof LibraryInputSchema>;

/** What the tool advertises: one JSON object schema, every op's fields optional, held to the union above. */
export const LibraryToolInputSchema = z
  .object({
    op: z.enum(LIBRARY_OPS),
    ...Object.fromEntries(
      Object.entries({ ...FIELDS, ...FORKS_FIELDS }).map(([name, schema]) => [name, z.optional(schema)]),
    ),
  })
  .check(
    z.superRefine((value, ctx) => {
      const parsed = LibraryInputSchema.safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    }),
  );

export const LibraryOutputSchema = z.object({
  op: z.string(),
  update: z.optional(LibraryUpdateSchema),
  listing: z.optional(LibraryListingSchema),
  /** show: the session's bounded preview (docs/preview.md), the same text ctx_fork_detect's preview holds. */
  preview: z.optional(z.string()),
  /** forks: the forks made from the user's sessions and what each came to (docs/forks.md). */
  forks: z.optional(ForksReportSchema),
});
export type LibraryOutput = z.infer<typeof LibraryOutputSchema>;

export function libraryDeps(
  deps: Pick<ServerDeps, "env" | "config" | "now" | "sessionId" | "projectRoot">,
): LibraryDeps & { projectRoot: string } {
  return {
    projectRoot: deps.projectRoot,
    env: deps.env ?? process.env,
    now: deps.now,
    allowlist: deps.config.redaction.allowlist,
    ...(deps.sessionId === undefined ? {} : { currentSessionId: deps.sessionId }),
  };
}

export async function runLibraryOp(
  deps: LibraryDeps & { projectRoot: string },
  input: LibraryInput,
): Promise<ToolReply<LibraryOutput>> {
  if (input.op === "forks") {
    const since = input.since === undefined ? null : parseTimeBound(input.since, deps.now().getTime());
    if (input.since !== undefined && since === null) {
      throw new CtxError("USAGE", `since "${input.since}" is not a date`, { hint: "an ISO date or an age: 7d, 3w" });
    }
    // Loaded on the op's first use: it reads the fork log and the forks' transcripts.
    const { forkHistoryForModel } = await import("../../search/fork-history.ts");
    const { text, structured } = await forkHistoryForModel({
      env: deps.env,
      projectRoot: deps.projectRoot,
      ...(input.project === undefined ? {} : { project: input.project }),
      ...(since === null ? {} : { since }),
      ...(input.limit === undefined ? {} : { limit: input.limit }),
    });
    return { text, structured: { op: "forks", forks: structured } };
  }
  if (input.op === "list") {
    const listing = await listLibrary(deps, {
      ...(input.starred === true ? { starred: true } : {}),
      ...(input.tags === undefined ? {} : { labels: input.tags }),
    });
    const lines = listing.sessions.map((s) => {
      const marks = [s.starred ? "starred" : "", s.labels.length > 0 ? `tags ${s.labels.join(", ")}` : ""]
        .filter((part) => part !== "")
        .join("; ");
      const title = s.title === null ? "(not indexed)" : s.title || "(untitled)";
      return `${s.sessionId} · ${title}${marks === "" ? "" : ` · ${marks}`}${s.note === null ? "" : ` · note: ${s.note}`}`;
    });
    return {
      text: lines.length === 0 ? "No session is starred, tagged or noted (with these filters)." : lines.join("\n"),
      structured: { op: "list", listing },
    };
  }
  const id = input.session_id ?? deps.currentSessionId;
  if (id === undefined) {
    throw new CtxError("USAGE", "no session named, and this server does not know the session it serves", {
      hint: "pass session_id (from ctx_fork_detect)",
    });
  }
  if (input.op === "show") {
    // Loaded on the op's first use: the preview reads transcripts, which no other op needs.
    const { previewTextFor } = await import("../../search/session-preview.ts");
    const preview = await previewTextFor(id, { env: deps.env, atUuid: input.at ?? null });
    return { text: preview, structured: { op: "show", preview } };
  }
  const update = await updateLibrary(
    deps,
    id,
    input.op === "tag" || input.op === "untag"
      ? { op: input.op, tags: input.tags }
      : input.op === "note"
        ? { op: "note", note: input.note.trim() === "" ? null : input.note }
        : { op: input.op },
  );
  const { starred, labels, note } = update.annotation;
  const now = [starred ? "starred" : "not starred", `tags: ${labels.join(", ") || "none"}`, `note: ${note ?? "none"}`];
  const redacted = update.redactions > 0 ? ` (${update.redactions} secret(s) redacted)` : "";
  return {
    text: [`${input.op}: ${update.sessionId}${redacted}; now ${now.join("; ")}.`, ...update.notices].join("\n"),
    structured: { op: input.op, update },
  };
}

export const libraryTool = defineTool({
  name: "ctx_library",
  title: "ctx session library",
  description:
    "The user's session library: star, tag and note past sessions so ctx_fork_detect can filter (tags, starred) and " +
    "find them (a note's words count as the session's). op star|unstar {session_id?}|tag|untag {session_id?, tags}|" +
    "note {session_id?, note} (empty note clears)|list {starred?, tags?}|show {session_id?, at?} (read a session " +
    "before forking it: prompts, replies, tools, files)|forks {project?, since?, limit?} (forks made from the " +
    "user's sessions and whether each paid off). session_id defaults to this session: call it " +
    "when the user asks to star, tag or note the current session.",
  input: LibraryToolInputSchema,
  output: LibraryOutputSchema,
  // Destructive: unstar, untag and an empty note remove what the user said (show and list only read).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handle: (input, deps) => runLibraryOp(libraryDeps(deps), LibraryInputSchema.parse(input)),
});
