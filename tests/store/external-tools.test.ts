// The compressed payload cut out of a container is a standard frame: the real `lz4` and `zstd` tools
// decode it to the container's msgpack bytes, and docs/state.md's recipe for reading one by hand works as written. Skipped only on a dev machine without the tools; in CI a
// missing tool fails the test (install them with `apt-get install -y lz4 zstd`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encode } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { encodeContainer, HEADER_BYTES } from "../../src/store/files/container.ts";
import { missingTool } from "../helpers/required-tool.ts";

const value = (files: number) => ({
  files: Array.from({ length: files }, (_, i) => ({ path: `src/dir-${i % 30}/file-${i}.ts`, lines: i * 7 })),
  summary: "The user is refactoring the lock module; tests pass except the durability suite. ".repeat(50),
});
// For LZ4, over 4 MiB of msgpack: lz4js splits it into blocks that refer back across block borders (a
// "dependent blocks" frame), which the reference decoder must accept too. zstd-19 is slow: keep it small.
const values = { lz4: value(120_000), zstd: value(3_000) };

function toolMissing(tool: string): string | null {
  const probe = spawnSync(tool, ["--version"], { encoding: "utf8" });
  return missingTool(`\`${tool}\``, probe.error === undefined && probe.status === 0, `apt-get install -y ${tool}`);
}

describe.each([
  ["lz4", "lz4"],
  ["zstd", "zstd"],
] as const)("the %s payload", (codec, tool) => {
  it(`decodes with the real \`${tool} -d\``, (context) => {
    const missing = toolMissing(tool);
    if (missing !== null) {
      context.skip(missing);
      return;
    }
    const container = encodeContainer(values[codec], codec);
    if (codec === "lz4") expect(encode(values.lz4).length).toBeGreaterThan(4 * 1024 * 1024);
    const frame = container.subarray(HEADER_BYTES);
    const run = spawnSync(tool, ["-d", "-c"], { input: frame, maxBuffer: 64 * 1024 * 1024 });
    expect(run.stderr.toString()).toBe("");
    expect(run.status).toBe(0);
    expect(Buffer.from(run.stdout).equals(Buffer.from(encode(values[codec])))).toBe(true);
  });
});

// docs/state.md's recipe, as written there: the codec is byte 7 of the header; the payload is what follows it.
describe("reading a payload by hand (docs/state.md)", () => {
  const sh = (script: string, file: string) =>
    spawnSync("sh", ["-c", script, "_", file], { maxBuffer: 64 * 1024 * 1024 });
  const written = (codec: "none" | "lz4") => {
    const file = join(mkdtempSync(join(tmpdir(), "ctx-recipe-")), "state.ctx");
    writeFileSync(file, encodeContainer(values.zstd, codec));
    return file;
  };

  it("a small file's codec is 0 and `tail -c +49` is its msgpack", () => {
    const file = written("none");
    expect(sh('od -An -tu1 -j6 -N1 "$1"', file).stdout.toString().trim()).toBe("0");
    expect(Buffer.from(sh('tail -c +49 "$1"', file).stdout).equals(Buffer.from(encode(values.zstd)))).toBe(true);
  });

  it("an LZ4 file's codec is 1 and `tail -c +49 | lz4 -d` gives its msgpack", (context) => {
    const missing = toolMissing("lz4");
    if (missing !== null) {
      context.skip(missing);
      return;
    }
    const file = written("lz4");
    expect(sh('od -An -tu1 -j6 -N1 "$1"', file).stdout.toString().trim()).toBe("1");
    const run = sh('tail -c +49 "$1" | lz4 -d', file);
    expect(Buffer.from(run.stdout).equals(Buffer.from(encode(values.zstd)))).toBe(true);
  });
});
