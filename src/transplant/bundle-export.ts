// `ctx export <id…> --out <file>`: sessions of this machine written as one portable bundle (docs/export-import.md):
// each session's transcript and its subagents' transcripts, redacted as the team push redacts them
// (./redact-file.ts), what the session index knows of it (title, project by its git remote, branch, dates, lineage)
// and the person's annotations (injected: the library's store), in the archive's container
// (store/archive/archive-container.ts: streamed, SHA-256 per file and over the whole), at the path the person named
// (store/files/user-file.ts). Everything is looked up before the file is opened: an unknown id writes nothing.
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { redactText } from "../core/redact/redact.ts";
import { projectName } from "../core/team/project-identity.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleAnnotation,
  type BundleManifest,
  type BundleSession,
  bundleEntryName,
  entryNameProblem,
} from "../core/transplant/bundle-manifest.ts";
import { CtxError } from "../errors.ts";
import { readLineage } from "../search/session-index/lineage.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import { readStoredSessions, type StoredSession } from "../search/session-index/stored-rows.ts";
import { type FileToArchive, writeArchiveContainer } from "../store/archive/archive-container.ts";
import { writeUserNamedFileWith } from "../store/files/user-file.ts";
import { CTX_VERSION } from "../version.ts";
import type { ExportReport } from "./bundle-report.ts";
import { checkoutIdentity } from "./checkout-identity.ts";
import { redactFileInto } from "./redact-file.ts";
import { withStaging } from "./staging.ts";

/** The person's annotations of these sessions (the library's store); a session without any is left out. */
export type AnnotationsSource = (ids: readonly string[]) => Promise<ReadonlyMap<string, BundleAnnotation>>;

export interface ExportOptions {
  ids: readonly string[];
  /** --out, as the person typed it (resolved by user-file.ts). */
  out: string;
  /** --force: follow a symbolic link at --out. */
  force: boolean;
  /** The session index's file. */
  indexPath: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** `redaction.allowlist`. */
  allowlist: readonly string[];
  annotations?: AnnotationsSource;
}

interface SessionToExport {
  session: Omit<BundleSession, "files">;
  files: Array<{ name: string; path: string }>;
}

export async function exportSessions(options: ExportOptions): Promise<ExportReport> {
  const ids = [...new Set(options.ids)];
  if (ids.length === 0)
    throw new CtxError("USAGE", "name at least one session", { hint: "ctx export <id…> --out <file>" });
  for (const id of ids) {
    if (!isSessionId(id)) {
      throw new CtxError("USAGE", `${JSON.stringify(id)} is not a Claude Code session id (a UUID)`, {
        hint: "`ctx search <words>` shows sessions with their ids; nothing was written",
      });
    }
  }
  const sessions = await sessionsToExport(ids, options);
  return withStaging(options.env, async (staging) => {
    const files: FileToArchive[] = [];
    const staged = new Map<string, number>();
    for (const [i, { files: own }] of sessions.entries()) {
      for (const [j, file] of own.entries()) {
        const path = join(staging, `${i}-${j}.jsonl`);
        const { bytes } = await redactFileInto(file.path, path, options.allowlist);
        files.push({ name: file.name, path, bytes });
        staged.set(file.name, bytes);
      }
    }
    let manifest: BundleManifest | null = null;
    const written = await writeUserNamedFileWith(
      options.out,
      (handle) =>
        writeArchiveContainer(handle, files, (streamed) => {
          const byName = new Map(streamed.map((file) => [file.name, file]));
          manifest = {
            format: BUNDLE_FORMAT,
            version: BUNDLE_VERSION,
            createdAt: options.now.toISOString(),
            ctxVersion: CTX_VERSION,
            redacted: true,
            sessions: sessions.map(({ session, files: own }) => ({
              ...session,
              files: own.map(({ name }) => {
                const file = byName.get(name);
                return { path: name, bytes: file?.bytes ?? 0, sha256: file?.sha256 ?? "" };
              }),
            })),
          };
          return manifest;
        }),
      { force: options.force },
    );
    const done = manifest as BundleManifest | null;
    return {
      out: written,
      redacted: true,
      sessions: (done?.sessions ?? []).map((session) => ({
        sessionId: session.id,
        title: session.title,
        project: projectName(session.project),
        files: session.files.length,
        bytes: session.files.reduce((sum, file) => sum + file.bytes, 0),
        annotated: session.annotations !== undefined,
      })),
    };
  });
}

/** Every session's index row, project, files and annotations; any missing is an error before anything is written. */
async function sessionsToExport(ids: readonly string[], options: ExportOptions): Promise<SessionToExport[]> {
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(options.indexPath, { readonly: true });
  } catch (error) {
    throw new CtxError("NOT_FOUND", "the session index cannot be read", {
      hint: "`ctx index` builds it; nothing was written",
      cause: error,
    });
  }
  let rows: Map<string, StoredSession>;
  let lineage: ReturnType<typeof readLineage>;
  try {
    rows = readStoredSessions(index, ids);
    lineage = readLineage(index, ids);
  } finally {
    index.close();
  }
  const annotations = (await options.annotations?.(ids)) ?? new Map<string, BundleAnnotation>();
  const out: SessionToExport[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (row === undefined || row.path === null) {
      throw new CtxError("NOT_FOUND", `session ${id} is not in the session index`, {
        hint: "`ctx search <words>` shows the sessions you can export (`ctx index` takes in new ones); nothing was written",
      });
    }
    if (row.cwd === null) {
      throw new CtxError("USAGE", `session ${id} records no folder, so no project to name`, {
        hint: "a bundle names each session's project by its git remote; nothing was written",
      });
    }
    const project = await checkoutIdentity(row.cwd);
    const subagents = await subagentFiles(row.path, id);
    const family = lineage.get(id);
    const annotation = annotations.get(id);
    out.push({
      session: {
        id,
        title: row.title,
        project,
        branch: row.gitBranch,
        startedAt: row.createdAt,
        endedAt: row.updatedAt,
        messageCount: row.messageCount,
        lineage: { parents: family?.parents ?? [], forks: family?.forks ?? [] },
        ...(annotation === undefined ? {} : { annotations: redactedAnnotation(annotation, options.allowlist) }),
      },
      files: [{ name: bundleEntryName(id, null), path: row.path }, ...subagents],
    });
  }
  return out;
}

/** `<project folder>/<id>/subagents/*.jsonl`, as Claude Code lays them out (docs/claude-code-facts.md). */
async function subagentFiles(transcript: string, id: string): Promise<Array<{ name: string; path: string }>> {
  const folder = join(dirname(transcript), id, "subagents");
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entryNameProblem(bundleEntryName(id, entry.name), id) === null)
    .map((entry) => ({ name: bundleEntryName(id, entry.name), path: join(folder, entry.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A note and labels pass the redactor like everything else that leaves the machine. */
function redactedAnnotation(annotation: BundleAnnotation, allowlist: readonly string[]): BundleAnnotation {
  const clean = (text: string) => redactText(text, { allowlist }).text;
  return {
    starred: annotation.starred,
    labels: annotation.labels.map(clean),
    note: annotation.note === null ? null : clean(annotation.note),
  };
}
