// Writes the golden container files tests/golden/v1-<codec>.ctx from GOLDEN_VALUE.
// Run once per format version: `node tests/golden/make-golden.ts` (add --force to replace files that
// differ, which is a format change and must come with a migration; see src/store/files/migrate.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODECS } from "../../src/store/files/codecs.ts";
import { encodeContainer } from "../../src/store/files/container.ts";
import { CURRENT_FORMAT_VERSION } from "../../src/store/files/migrate.ts";
import { GOLDEN_VALUE } from "./golden-value.ts";

const force = process.argv.includes("--force");
const folder = import.meta.dirname;
for (const codec of CODECS) {
  const path = join(folder, `v${CURRENT_FORMAT_VERSION}-${codec}.ctx`);
  const bytes = encodeContainer(GOLDEN_VALUE, codec);
  if (existsSync(path)) {
    if (Buffer.from(readFileSync(path)).equals(bytes)) {
      process.stdout.write(`unchanged ${path}\n`);
      continue;
    }
    if (!force) {
      process.stderr.write(`${path} exists and differs; keeping it (use --force to replace it)\n`);
      process.exitCode = 1;
      continue;
    }
  }
  writeFileSync(path, bytes);
  process.stdout.write(`wrote ${path} (${bytes.length} bytes)\n`);
}
