// The redaction recall table (issue #11): recall per planted kind and per case on the fake-secrets corpus, and false
// positives on the clean corpus, on every real transcript in the repository and on the shared fixtures folder
// (../shared/fixtures, or CTX_SHARED_FIXTURES; skipped when absent). Called by redact.bench.ts; run it alone with
// `node bench/redact-recall.ts` for the JSON table without the timings.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { redactText } from "../src/core/redact/redact.ts";
import {
  buildSecretSamples,
  checkSecretSample,
  loadCleanFiles,
  loadRealTranscripts,
} from "../tests/fixtures/redaction/corpus.ts";
import { measureHeldOut } from "../tests/fixtures/redaction/held-out.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

interface Tally {
  planted: number;
  caught: number;
}

const ratio = (tally: Tally): number => Number((tally.caught / tally.planted).toFixed(4));

function tallyInto(table: Map<string, Tally>, key: string, caught: boolean): void {
  const tally = table.get(key) ?? { planted: 0, caught: 0 };
  tally.planted += 1;
  if (caught) tally.caught += 1;
  table.set(key, tally);
}

/** Recall on the planted secrets: a secret counts as caught when its kind's marker is there and no piece survives. */
export function measureRecall() {
  const samples = buildSecretSamples();
  const byKind = new Map<string, Tally>();
  const byCase = new Map<string, Tally>();
  const missed: string[] = [];
  let planted = 0;
  let caught = 0;
  for (const sample of samples) {
    const outcome = redactText(sample.text);
    const problems = checkSecretSample(sample, outcome);
    for (const secret of sample.secrets) {
      // Per secret: its own marker present and none of its pieces left.
      const ok = !problems.some(
        (problem) => problem.includes(` ${secret.kind} `) || problem.startsWith(`${secret.kind} `),
      );
      tallyInto(byKind, secret.kind, ok);
      planted += 1;
      if (ok) caught += 1;
    }
    tallyInto(byCase, sample.id, problems.length === 0);
    if (problems.length > 0) missed.push(`${sample.id} in ${sample.context}: ${problems.join("; ")}`);
  }
  const table = (map: Map<string, Tally>) =>
    Object.fromEntries(
      [...map.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, tally]) => [key, `${tally.caught}/${tally.planted}`]),
    );
  return {
    cases: byCase.size,
    kinds: byKind.size,
    samples: samples.length,
    planted,
    caught,
    recall: ratio({ planted, caught }),
    kindsBelowFull: [...byKind.entries()].filter(([, t]) => t.caught < t.planted).map(([kind]) => kind),
    byKind: table(byKind),
    byCase: table(byCase),
    missed,
  };
}

function findingsIn(text: string): { count: number; kinds: string[] } {
  const findings = redactText(text).findings;
  return { count: findings.length, kinds: [...new Set(findings.map((finding) => finding.kind))] };
}

function listFiles(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return listFiles(path, keep);
      return entry.isFile() && keep(entry.name) ? [path] : [];
    });
}

function sharedFixturesDir(): string | null {
  const candidates = process.env.CTX_SHARED_FIXTURES
    ? [process.env.CTX_SHARED_FIXTURES]
    : [join(repoRoot, "../shared/fixtures"), join(repoRoot, "../../shared/fixtures"), "/work/shared/fixtures"];
  return candidates.find((dir) => existsSync(dir)) ?? null;
}

/** Findings on text that holds no secret: each clean file, each real transcript, each shared fixture. */
export function measureFalsePositives() {
  const perFile = (files: { name: string; text: string }[]) =>
    Object.fromEntries(files.map((file) => [file.name, findingsIn(file.text).count]));
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
  const clean = perFile(loadCleanFiles());
  const transcripts = perFile(loadRealTranscripts());
  const sharedDir = sharedFixturesDir();
  const shared =
    sharedDir === null
      ? null
      : perFile(
          listFiles(sharedDir, (name) => name.endsWith(".jsonl") || name.endsWith(".json")).map((path) => ({
            name: path.slice(sharedDir.length + 1),
            text: readFileSync(path, "utf8"),
          })),
        );
  return {
    cleanFilesTotal: total(clean),
    realTranscriptsTotal: total(transcripts),
    sharedFixturesTotal: shared === null ? "not found" : total(shared),
    cleanFiles: clean,
    realTranscripts: transcripts,
    sharedFixtures: shared ?? {},
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(
    `${JSON.stringify({ recall: measureRecall(), heldOut: measureHeldOut(redactText), falsePositives: measureFalsePositives() }, null, 2)}\n`,
  );
}
