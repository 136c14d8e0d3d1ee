// `ctx import <file>`: a bundle's sessions (./bundle-export.ts wrote it, maybe on another machine) placed into Claude
// Code's folder for this machine's checkout of each session's project, as `ctx fork` places a teammate's session
// (./locate-checkout.ts, ./place-transcript.ts: the same target, the same cwd rewrite, store/files/claude-file.ts).
// In steps, so that a bundle that is wrong in any way writes nothing: (1) read and check it whole (./bundle-read.ts);
// (2) find every checkout; (3) read it again into ctx's own staging, each line's cwd moved; (4) look at every target
// (an identical file is left alone, a different one stops the import unless --force); (5) only then copy into place.
import { dirname, join } from "node:path";
import { quoteShellWord, shellCommand } from "../core/shell/quote.ts";
import { projectName } from "../core/team/project-identity.ts";
import {
  type BundleAnnotation,
  type BundleLimits,
  type BundleSession,
  bundleEntryName,
  DEFAULT_BUNDLE_LIMITS,
} from "../core/transplant/bundle-manifest.ts";
import type { CwdRewrite } from "../core/transplant/transcript-cwd.ts";
import { CtxError } from "../errors.ts";
import { type ClaudeTargetState, claudeTargetState, copyToClaudeFile } from "../store/files/claude-file.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { readBundle, refusedBundle } from "./bundle-read.ts";
import type { ImportReport } from "./bundle-report.ts";
import { RewritingSink, type StagedFile } from "./bundle-rewrite.ts";
import { type CheckoutQuestion, locateCheckout } from "./locate-checkout.ts";
import { cwdRewriteFor, transcriptTarget } from "./place-transcript.ts";
import { withStaging } from "./staging.ts";

/** Hands a session's annotations to the library's store (injected by the shell). */
export type AnnotationsSink = (sessionId: string, annotation: BundleAnnotation) => Promise<void>;

export interface ImportOptions {
  /** The bundle's path, resolved. */
  path: string;
  /** --force: replace a different transcript already in Claude Code's folder. */
  force: boolean;
  env: NodeJS.ProcessEnv;
  /** The folder the import is asked from: its repository is looked in first. */
  cwd: string;
  /** --checkout, resolved. */
  checkout?: string;
  claudeDir: string;
  askCheckout: CheckoutQuestion;
  now: Date;
  limits?: BundleLimits;
  annotations?: AnnotationsSink;
}

interface Place {
  session: BundleSession;
  project: string;
  target: { to: string; cwd: string; path: string };
  rewrite: CwdRewrite | null;
}

export async function importBundle(options: ImportOptions): Promise<ImportReport> {
  const limits = options.limits ?? DEFAULT_BUNDLE_LIMITS;
  const checked = await readBundle(options.path, limits);
  const places: Place[] = [];
  for (const session of checked.manifest.sessions) {
    const project = sanitizeLogLine(projectName(session.project));
    const checkout = await locateCheckout({
      remoteUrl: session.project.remoteUrl,
      repoPath: session.project.repoPath,
      project,
      cwd: options.cwd,
      claudeDir: options.claudeDir,
      ...(options.checkout === undefined ? {} : { checkout: options.checkout }),
      askCheckout: options.askCheckout,
    });
    const target = await transcriptTarget(checkout, session.project.repoPath, session.id, options.env);
    const first = checked.firstCwds.get(bundleEntryName(session.id, null)) ?? null;
    const rewrite = first === null ? null : cwdRewriteFor(first, session.project.repoPath, target.to);
    places.push({ session, project, target, rewrite });
  }
  return withStaging(options.env, async (staging) => {
    const rewrites = new Map<string, CwdRewrite | null>(
      places.flatMap(({ session, rewrite }) => session.files.map((file) => [file.path, rewrite] as const)),
    );
    const sink = new RewritingSink(staging, rewrites);
    const again = await readBundle(options.path, limits, sink);
    if (again.files.some((file, i) => file.sha256 !== checked.files[i]?.sha256)) {
      throw refusedBundle(options.path, "it changed while it was imported");
    }
    // Every target looked at before anything is put in place: one conflict stops the whole import.
    const moves: Array<{ target: string; staged: StagedFile; state: ClaudeTargetState }> = [];
    for (const place of places) {
      const projectDir = dirname(place.target.path);
      for (const file of place.session.files) {
        const staged = sink.staged.get(file.path);
        if (staged === undefined) throw refusedBundle(options.path, `${file.path} was not read`);
        const target =
          file.path === bundleEntryName(place.session.id, null) ? place.target.path : join(projectDir, file.path);
        const state = await claudeTargetState(target, staged.sha256, "nothing was imported");
        if (state === "different" && !options.force) {
          throw new CtxError("CONFLICT", `a different copy of ${file.path} is already at ${target}`, {
            hint: "Claude Code has its own copy: keep it, or pass --force to replace it with the bundle's; nothing was imported",
          });
        }
        moves.push({ target, staged, state });
      }
    }
    for (const move of moves) {
      if (move.state === "identical") continue;
      await copyToClaudeFile(move.target, move.staged.path, options.now, { replace: move.state === "different" });
    }
    for (const { session } of places) {
      if (session.annotations !== undefined) await options.annotations?.(session.id, session.annotations);
    }
    return {
      bundle: options.path,
      sessions: places.map(({ session, project, target }) => {
        const main = moves.find((move) => move.target === target.path);
        const state = main?.state ?? "absent";
        return {
          sessionId: session.id,
          title: session.title,
          project,
          checkout: target.to,
          cwd: target.cwd,
          transcriptPath: target.path,
          outcome: state === "absent" ? "written" : state === "identical" ? "unchanged" : "replaced",
          files: session.files.length,
          rewrittenCwdFields: session.files.reduce((sum, f) => sum + (sink.staged.get(f.path)?.rewritten ?? 0), 0),
          resumeCommand: `cd ${quoteShellWord(target.cwd)} && ${shellCommand(["claude", "--resume", session.id])}`,
          annotated: session.annotations !== undefined,
        };
      }),
    };
  });
}
