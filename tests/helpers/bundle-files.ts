// Session bundles written for tests: the real container writer (store/archive/archive-container.ts) with a manifest
// made the way bundle-export.ts makes it, and a hook to spoil it (a hostile bundle is a well-formed container
// around a manifest or files that lie).
import { mkdtempSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleAnnotation,
  type BundleManifest,
} from "../../src/core/transplant/bundle-manifest.ts";
import { writeArchiveContainer } from "../../src/store/archive/archive-container.ts";

export interface TestBundleSession {
  id: string;
  remoteUrl: string;
  repoPath?: string;
  /** Entry name -> bytes, the transcript (`<id>.jsonl`) first. */
  files: Array<{ name: string; text: string | Buffer }>;
  annotations?: BundleAnnotation;
}

export async function writeTestBundle(
  path: string,
  sessions: readonly TestBundleSession[],
  spoil: (manifest: BundleManifest) => unknown = (manifest) => manifest,
): Promise<void> {
  const staging = mkdtempSync(join(tmpdir(), "ctx-test-bundle-"));
  const files = sessions.flatMap((session, i) =>
    session.files.map((file, j) => {
      const staged = join(staging, `${i}-${j}`);
      writeFileSync(staged, file.text);
      return { name: file.name, path: staged, bytes: Buffer.byteLength(file.text) };
    }),
  );
  const handle = await open(path, "w", 0o600);
  try {
    await writeArchiveContainer(handle, files, (streamed) => {
      const byName = new Map(streamed.map((file) => [file.name, file]));
      const manifest: BundleManifest = {
        format: BUNDLE_FORMAT,
        version: BUNDLE_VERSION,
        createdAt: "2026-12-01T00:00:00.000Z",
        ctxVersion: "test",
        redacted: true,
        sessions: sessions.map((session) => ({
          id: session.id,
          title: `session ${session.id}`,
          project: { remoteUrl: session.remoteUrl, repoPath: session.repoPath ?? "" },
          branch: "main",
          startedAt: 1,
          endedAt: 2,
          messageCount: 2,
          lineage: { parents: [], forks: [] },
          files: session.files.map((file) => ({
            path: file.name,
            bytes: byName.get(file.name)?.bytes ?? 0,
            sha256: byName.get(file.name)?.sha256 ?? "",
          })),
          ...(session.annotations === undefined ? {} : { annotations: session.annotations }),
        })),
      };
      return spoil(manifest);
    });
  } finally {
    await handle.close();
  }
}

/** A transcript of two lines recorded in `cwd` (the shape of Claude Code's user and assistant lines). */
export function transcriptIn(sessionId: string, cwd: string): string {
  const envelope = { sessionId, cwd, version: "2.1.0", gitBranch: "main", isSidechain: false, userType: "external" };
  return [
    JSON.stringify({
      ...envelope,
      type: "user",
      uuid: "11111111-1111-4111-8111-111111111111",
      parentUuid: null,
      timestamp: "2026-11-30T10:00:00.000Z",
      message: { role: "user", content: "fix the login redirect" },
    }),
    JSON.stringify({
      ...envelope,
      type: "assistant",
      uuid: "22222222-2222-4222-8222-222222222222",
      parentUuid: "11111111-1111-4111-8111-111111111111",
      timestamp: "2026-11-30T10:00:05.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "Done: the redirect keeps the path." }] },
    }),
    "",
  ].join("\n");
}
