// Writes tests/golden/v1-snapshot.ctx and v1-checkpoint.ctx (LZ4, deterministic) from snapshot-golden-value.ts.
// Run once per format change: `node tests/golden/make-snapshot-golden.ts` (--force replaces differing files,
// which is a format change and must come with a migration; see src/store/files/migrate.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeContainer } from "../../src/store/files/container.ts";
import { GOLDEN_CHECKPOINT, GOLDEN_SNAPSHOT } from "./snapshot-golden-value.ts";

const force = process.argv.includes("--force");
for (const [name, value] of [
  ["v1-snapshot.ctx", GOLDEN_SNAPSHOT],
  ["v1-checkpoint.ctx", GOLDEN_CHECKPOINT],
] as const) {
  const path = join(import.meta.dirname, name);
  const bytes = encodeContainer(value, "lz4");
  if (existsSync(path) && !Buffer.from(readFileSync(path)).equals(bytes) && !force) {
    process.stderr.write(`${path} exists and differs; keeping it (use --force to replace it)\n`);
    process.exitCode = 1;
    continue;
  }
  writeFileSync(path, bytes);
  process.stdout.write(`wrote ${path} (${bytes.length} bytes)\n`);
}
