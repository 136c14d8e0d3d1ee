// Secret redaction: throughput on the real transcripts (the hook path redacts whole transcripts) and on the secrets
// corpus, recall on the planted fake secrets, false positives on ordinary text, and the worst 1 MB adversarial line.
// MB = 10^6 bytes of UTF-8, per wall and per CPU second. Target: >= 20 MB/s on ordinary text. The recall table (per
// kind and per case) and the false positives per file come from redact-recall.ts.

import { redactText, redactValue } from "../src/core/redact/redact.ts";
import { buildSecretSamples, loadRealTranscripts } from "../tests/fixtures/redaction/corpus.ts";
import { measureHeldOut } from "../tests/fixtures/redaction/held-out.ts";
import { measureFalsePositives, measureRecall } from "./redact-recall.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MB_PER_S = 20;

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Median wall time and median CPU time (the machines are shared: CPU time shows less of the neighbours). */
function medianMs(task: () => void): { wall: number; cpu: number } {
  task(); // warm-up: compile the regexes
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    task();
    const used = process.cpuUsage(cpuStart);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));
const megabytes = (text: string): number => Buffer.byteLength(text, "utf8") / 1e6;

function throughput(text: string, task: () => void) {
  const { wall, cpu } = medianMs(task);
  const mb = megabytes(text);
  return { mb: round(mb, 2), ms: round(wall), mbPerS: round(mb / (wall / 1000)), cpuMbPerS: round(mb / (cpu / 1000)) };
}

/** SEQUENCE, INTEGER 0, SEQUENCE (3,840 bytes: past the line) { OID }: a PKCS#8 key's start that asks for more. */
function keyHeaderLine(): string {
  const header = [0x30, 0x82, 0x10, 0x00, 0x02, 0x01, 0x00, 0x30, 0x82, 0x0f, 0x00, 0x06, 0x03, 0x2b, 0x65, 0x70];
  return Buffer.concat([Buffer.from(header), Buffer.alloc(32, 7)]).toString("base64");
}

function adversarialWorstMs(): { worstMs: number; worstInput: string } {
  const size = 1_000_000;
  const repeat = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const inputs: Record<string, string> = {
    letters: repeat("a"),
    "eyJ-": repeat("eyJ-"),
    "jwt-like": repeat("eyJabcdefghijk."),
    "BEGIN lines": repeat(`${"-".repeat(5)}BEGIN PRIVATE KEY${"-".repeat(5)}`),
    "token=": repeat("token="),
    "password: ": repeat("password: "),
    "://a:": repeat("://a:"),
    "Bearer ": repeat("Bearer "),
    "api key ": repeat("api key "),
    "--token ": repeat("--token "),
    "unterminated quote": `token = "${repeat("a")}`,
    "curl -u a": repeat("curl -u a"),
    "docker login ": repeat("docker login "),
    "sshpass -p ": repeat("sshpass -p "),
    "redis-cli -a ": repeat("redis-cli -a "),
    "password is ": repeat("password is "),
    "password for a b c d ": repeat("password for a b c d "),
    ":5432:a:b:": repeat(":5432:a:b:"),
    "bcrypt prefix": repeat("$2b$12$"),
    "base64 run": repeat("QUFB"),
    "base64 wrapped text": repeat(`${"QUFB".repeat(19)}\n`),
    "htpasswd -b ": repeat("htpasswd -b a "),
    "private_key_id: ": repeat("private_key_id: "),
    "key header lines": repeat(`${keyHeaderLine()}\n\n`),
    "OpenSSH magic lines": repeat(`b3BlbnNzaC1rZXktdjEA${"A".repeat(108)}\n`),
  };
  let worst = { worstMs: 0, worstInput: "" };
  for (const [name, text] of Object.entries(inputs)) {
    const start = performance.now();
    redactText(text);
    const ms = performance.now() - start;
    if (ms > worst.worstMs) worst = { worstMs: round(ms), worstInput: name };
  }
  return worst;
}

export async function run(): Promise<Record<string, unknown>> {
  const transcripts = loadRealTranscripts();
  const transcriptText = transcripts.map((file) => file.text).join("");
  const transcriptLines = transcriptText.split("\n").filter((line) => line.trim() !== "");
  const parsedLines = transcriptLines.flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return []; // the fixtures include deliberately malformed lines
    }
  });
  const samples = buildSecretSamples();
  const secretsText = samples.map((sample) => sample.text).join("\n");

  const wholeTranscripts = throughput(transcriptText, () => redactText(transcriptText));
  const lineByLine = throughput(transcriptText, () => {
    for (const line of transcriptLines) redactText(line);
  });
  const valueWalk = throughput(transcriptText, () => {
    for (const entry of parsedLines) redactValue(entry);
  });
  const secretsCorpus = throughput(secretsText, () => redactText(secretsText));

  const recall = measureRecall();
  const falsePositives = measureFalsePositives();

  return {
    throughputMBps: {
      realTranscriptsWhole: { ...wholeTranscripts, files: transcripts.length },
      realTranscriptsLineByLine: { ...lineByLine, lines: transcriptLines.length },
      realTranscriptsRedactValue: valueWalk,
      secretsCorpus: { ...secretsCorpus, samples: samples.length },
      targetMBps: TARGET_MB_PER_S,
      withinTarget: Math.min(wholeTranscripts.mbPerS, lineByLine.mbPerS) >= TARGET_MB_PER_S,
      withinTargetCpu: Math.min(wholeTranscripts.cpuMbPerS, lineByLine.cpuMbPerS) >= TARGET_MB_PER_S,
    },
    recall: {
      planted: recall.planted,
      caught: recall.caught,
      recall: recall.recall,
      cases: recall.cases,
      kinds: recall.kinds,
      kindsBelowFull: recall.kindsBelowFull,
      missed: recall.missed,
      byKind: recall.byKind,
    },
    heldOut: measureHeldOut(redactText),
    falsePositives,
    adversarial1MB: adversarialWorstMs(),
  };
}
