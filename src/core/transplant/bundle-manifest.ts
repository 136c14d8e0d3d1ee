// A session bundle's manifest (`ctx export` writes it, `ctx import` reads it: docs/export-import.md): the sessions it
// holds with what the index knew of them, each file's size and SHA-256, and the person's own annotations. The bundle
// is the archive's container (store/archive/archive-container.ts) with this manifest as its meta. A bundle is
// untrusted input: the limits and the entry-name rule below are checked before anything is written.
import * as z from "zod/mini";
import { isPlainRepoPath } from "../team/project-identity.ts";
import { hasControlCharacter } from "../text/control-characters.ts";
import { isSessionId } from "../transcript/session-id.ts";

export const BUNDLE_FORMAT = "ctx-session-bundle";
export const BUNDLE_VERSION = 1;

/** What an import takes at most; tests pass smaller ones. */
export interface BundleLimits {
  /** The bundle file's size (the container's own limit is 4 GiB). */
  bundleBytes: number;
  /** All files' bytes once decompressed. */
  totalBytes: number;
  /** One file's bytes. */
  entryBytes: number;
  /** Files in the bundle. */
  entries: number;
  /** Sessions in the bundle. */
  sessions: number;
}

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  bundleBytes: 4 * 1024 ** 3 - 1,
  totalBytes: 4 * 1024 ** 3 - 1,
  entryBytes: 2 * 1024 ** 3,
  entries: 10_000,
  sessions: 1_000,
};

/** The person's own marks on a session (core/library/annotation.ts SessionAnnotation's shape), bounded. */
export const BundleAnnotationSchema = z.object({
  starred: z.boolean(),
  labels: z.array(z.string().check(z.maxLength(200))).check(z.maxLength(100)),
  note: z.nullable(z.string().check(z.maxLength(64 * 1024))),
});
export type BundleAnnotation = z.infer<typeof BundleAnnotationSchema>;

export const BundleFileSchema = z.object({
  /** Relative to the session's Claude Code project folder: `<id>.jsonl` or `<id>/subagents/<name>.jsonl`. */
  path: z.string(),
  bytes: z.number().check(z.int(), z.nonnegative()),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});
export type BundleFile = z.infer<typeof BundleFileSchema>;

export const BundleSessionSchema = z.object({
  id: z.string(),
  title: z.string().check(z.maxLength(4_096)),
  /** The project by its git remote (normalised) and its folder inside the repository. */
  project: z.object({
    remoteUrl: z.string().check(z.maxLength(1_024)),
    repoPath: z.string().check(z.maxLength(4_096)),
  }),
  branch: z.nullable(z.string().check(z.maxLength(1_024))),
  startedAt: z.nullable(z.number()),
  endedAt: z.nullable(z.number()),
  messageCount: z.number(),
  lineage: z.object({
    parents: z.array(z.string()).check(z.maxLength(10_000)),
    forks: z.array(z.string()).check(z.maxLength(10_000)),
  }),
  files: z.array(BundleFileSchema),
  annotations: z.optional(BundleAnnotationSchema),
});
export type BundleSession = z.infer<typeof BundleSessionSchema>;

export const BundleManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  createdAt: z.string(),
  ctxVersion: z.string(),
  /** Every transcript passed ctx's redactor before it was written. */
  redacted: z.literal(true),
  sessions: z.array(BundleSessionSchema),
});
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

/** A container entry's name for a session's main transcript or a subagent's. */
export function bundleEntryName(sessionId: string, subagent: string | null): string {
  return subagent === null ? `${sessionId}.jsonl` : `${sessionId}/subagents/${subagent}`;
}

const SUBAGENT_FILE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}\.jsonl$/;

/**
 * Why an entry's name is refused, or null when it is `<session>.jsonl` or `<session>/subagents/<file>.jsonl` of
 * `sessionId`: never absolute, never `..`, no backslash or control character, so it stays inside the project folder.
 */
export function entryNameProblem(name: string, sessionId: string): string | null {
  if (hasControlCharacter(name)) return `entry ${JSON.stringify(name)} holds a control character`;
  if (name.includes("\\")) return `entry ${JSON.stringify(name)} holds a backslash`;
  if (name.startsWith("/")) return `entry ${JSON.stringify(name)} is an absolute path`;
  if (name.split("/").some((part) => part === ".." || part === "." || part === "")) {
    return `entry ${JSON.stringify(name)} leads outside its folder`;
  }
  if (name === `${sessionId}.jsonl`) return null;
  const [first, middle, file, ...rest] = name.split("/");
  if (first === sessionId && middle === "subagents" && file !== undefined && rest.length === 0) {
    return SUBAGENT_FILE.test(file) ? null : `entry ${JSON.stringify(name)} is not a subagent transcript's name`;
  }
  return `entry ${JSON.stringify(name)} is not a file of session ${sessionId}`;
}

/**
 * Why a manifest (already schema-checked) is refused, or null: session ids, project folders, entry names, duplicates
 * and the counts within `limits`. The files' sizes and checksums are compared with what was read by the caller.
 */
export function manifestProblem(manifest: BundleManifest, limits: BundleLimits): string | null {
  if (manifest.sessions.length === 0) return "it holds no session";
  if (manifest.sessions.length > limits.sessions) {
    return `it holds ${manifest.sessions.length} sessions, over the ${limits.sessions} a bundle may hold`;
  }
  const entries = manifest.sessions.reduce((sum, session) => sum + session.files.length, 0);
  if (entries > limits.entries) return `it holds ${entries} files, over the ${limits.entries} a bundle may hold`;
  const ids = new Set<string>();
  for (const session of manifest.sessions) {
    if (!isSessionId(session.id)) return `${JSON.stringify(session.id)} is not a Claude Code session id`;
    if (ids.has(session.id)) return `session ${session.id} is in it twice`;
    ids.add(session.id);
    if (!isPlainRepoPath(session.project.repoPath) || hasControlCharacter(session.project.remoteUrl)) {
      return `session ${session.id}'s project folder is not a plain path inside a repository`;
    }
    if (session.files[0]?.path !== bundleEntryName(session.id, null)) {
      return `session ${session.id} does not start with its transcript`;
    }
    const names = new Set<string>();
    for (const file of session.files) {
      const problem = entryNameProblem(file.path, session.id);
      if (problem !== null) return problem;
      if (names.has(file.path)) return `entry ${file.path} is in it twice`;
      names.add(file.path);
      if (file.bytes > limits.entryBytes) {
        return `entry ${file.path} is ${file.bytes} bytes, over the ${limits.entryBytes} one file may be`;
      }
    }
  }
  return null;
}
