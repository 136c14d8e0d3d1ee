// A session's preview (docs/preview.md) from the session index and its transcript: the session named by its id or a
// unique start of it, its header from the index (shown even when the transcript is gone), then its transcript read
// streaming (store/transcript/reader.ts: one read buffer and one line at a time) through the pure builder
// (core/library/preview.ts), each exchange handed on as it closes, and its subagents' transcripts for the files
// they wrote. Shared by `ctx show`, the picker's pane and the preview ctx_fork_detect returns on request.
import { existsSync } from "node:fs";
import {
  addSubagentEntry,
  createPreviewBuilder,
  type PreviewExchange,
  type PreviewHeader,
  type SessionAnnotation,
  type SessionPreview,
} from "../core/library/preview.ts";
import { exchangesFromChunks } from "../core/library/preview-from-chunks.ts";
import { BOUNDED_PREVIEW_BYTES, renderBoundedPreview } from "../core/library/preview-text.ts";
import { isSkipped } from "../core/transcript/entries.ts";
import { CtxError } from "../errors.ts";
import { readTranscriptEntries } from "../store/transcript/reader.ts";
import { resolveIndexPath } from "./paths.ts";
import { readLineage } from "./session-index/lineage.ts";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";
import { subagentFilesOf } from "./session-index/session-lookup.ts";
import { readSessionChunks } from "./session-index/stored-rows.ts";
import { resolveSessionId } from "./session-naming.ts";

export interface PreviewReadOptions {
  /** The uuid of the line a search matched (a chunk's `lastUuid`): its exchange is marked. */
  atUuid?: string | null;
  /** The session's stars, labels and note, from the library's state; null when it has none. */
  annotation?: SessionAnnotation | null;
  /** Called with the header before the transcript is read, so a terminal shows it at once. */
  onHeader?: (header: PreviewHeader) => void;
  /** Called with each exchange as it closes; reading waits for the promise it returns (a pager's pipe full). */
  onExchange?: (exchange: PreviewExchange) => void | Promise<void>;
  /** Reading stops when this says so (the person quit the pager). */
  stopped?: () => boolean;
  /** Keep the exchanges in the result (default true); `ctx show` printing as it reads keeps none. */
  keepExchanges?: boolean;
}

/** The session index, read-only; a clear error when there is none yet. */
export function openIndexForPreview(env: NodeJS.ProcessEnv, dbPath = resolveIndexPath(env)): SessionIndex {
  if (!existsSync(dbPath)) {
    throw new CtxError("NOT_FOUND", "there is no session index yet", { hint: "run `ctx index` first" });
  }
  return openSessionIndex(dbPath, { readonly: true });
}

/** What the index holds of the session, with its lineage and annotation. */
export function readPreviewHeader(
  index: SessionIndex,
  sessionId: string,
  annotation: SessionAnnotation | null = null,
): PreviewHeader {
  // The index's mirror of the library (refilled by every sync) unless the caller holds a fresher one.
  const session = index.getSession(sessionId);
  if (session === null) throw new CtxError("NOT_FOUND", `the session ${sessionId} is not in the index`);
  const lineage = readLineage(index, [sessionId]).get(sessionId);
  return {
    sessionId,
    title: session.title,
    project: session.project,
    cwd: session.cwd,
    branch: session.gitBranch,
    createdAt: isoOrNull(session.createdAt),
    updatedAt: isoOrNull(session.updatedAt),
    messageCount: session.messageCount,
    parents: lineage?.parents ?? [],
    forks: lineage?.forks ?? [],
    transcriptPath: session.path === "" ? null : session.path,
    annotation: annotation ?? session.annotation ?? null,
  };
}

function isoOrNull(ms: number): string | null {
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : null;
}

/** The session's preview: the header, then its transcript streamed through the builder, then its subagents. */
export async function readSessionPreview(
  index: SessionIndex,
  sessionId: string,
  options: PreviewReadOptions = {},
): Promise<SessionPreview> {
  const header = readPreviewHeader(index, sessionId, options.annotation ?? null);
  options.onHeader?.(header);
  const keep = options.keepExchanges !== false;
  const exchanges: PreviewExchange[] = [];
  const hand = async (exchange: PreviewExchange | null) => {
    if (exchange === null) return;
    await options.onExchange?.(exchange);
    if (keep) exchanges.push(exchange);
  };
  const builder = createPreviewBuilder({ atUuid: options.atUuid ?? null });
  const subagentPaths = subagentFilesOf(index, sessionId);
  const subagents = { transcripts: subagentPaths.length, files: [] as string[], filesOmitted: 0 };
  const read = header.transcriptPath === null ? null : readTranscriptEntries(header.transcriptPath);
  if (read !== null) {
    for await (const line of read) {
      if (isSkipped(line.entry)) continue;
      // An old transcript keeps its subagents' lines inline (isSidechain): what they wrote counts as theirs.
      if ((line.entry.type === "assistant" || line.entry.type === "user") && line.entry.isSidechain === true) {
        addSubagentEntry(subagents, line.entry);
      }
      const closed = builder.add(line.entry);
      if (closed !== null) await hand(closed);
      if (options.stopped?.() === true) break;
    }
  }
  await hand(builder.finish());
  const missing = read === null || read.stats.fileSize === null;
  let atFound = builder.atFound();
  let fromIndex = false;
  if (missing) {
    // What the index kept of the main transcript stands in for it.
    const chunks = readSessionChunks(index, sessionId).filter((chunk) => chunk.source === header.transcriptPath);
    const rebuilt = exchangesFromChunks(chunks, options.atUuid ?? null);
    for (const exchange of rebuilt.exchanges) await hand(exchange);
    fromIndex = rebuilt.exchanges.length > 0;
    atFound = rebuilt.atFound;
  }
  for (const path of subagentPaths) {
    for await (const line of readTranscriptEntries(path)) {
      if (!isSkipped(line.entry)) addSubagentEntry(subagents, line.entry);
    }
  }
  // Meta lines and types ctx does not read are no damage; a line that is not JSON, cut short or over the cap is.
  const skipped = read?.stats.skipped;
  const linesSkipped = skipped === undefined ? 0 : skipped.malformed + skipped["too-long"] + skipped.truncated;
  return {
    header,
    exchanges,
    subagents,
    read: { transcript: missing ? "missing" : "read", linesSkipped, atFound, fromIndex },
  };
}

/**
 * A bounded preview (a few KB) of one session as text, for a model or a pane: opens the index, finds the session by
 * its id or a unique start of it, reads it and keeps the matched exchange with its neighbours (or the first and
 * last ones). What the `show` op of the library's MCP tool returns.
 */
export async function previewTextFor(
  sessionIdText: string,
  options: {
    env: NodeJS.ProcessEnv;
    dbPath?: string;
    atUuid?: string | null;
    annotation?: SessionAnnotation | null;
    maxBytes?: number;
  },
): Promise<string> {
  const index = openIndexForPreview(options.env, options.dbPath);
  try {
    return await boundedPreviewOf(index, resolveSessionId(sessionIdText, { index }), options);
  } finally {
    index.close();
  }
}

/** The bounded preview of a session already resolved, in an index already open. */
export async function boundedPreviewOf(
  index: SessionIndex,
  sessionId: string,
  options: { atUuid?: string | null; annotation?: SessionAnnotation | null; maxBytes?: number; brief?: boolean } = {},
): Promise<string> {
  const preview = await readSessionPreview(index, sessionId, {
    atUuid: options.atUuid ?? null,
    annotation: options.annotation ?? null,
  });
  return renderBoundedPreview(preview, options.maxBytes ?? BOUNDED_PREVIEW_BYTES, { brief: options.brief === true });
}
