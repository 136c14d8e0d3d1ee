// `pnpm bench`: runs every bench/*.bench.ts and prints one JSON document (also saved under bench/results/).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const all = readdirSync(here).filter((f) => f.endsWith(".bench.ts"));
// A name that is a whole section runs that section only (`bridge` is not also `bridge-chaos`); else a prefix.
const sections = new Set(all.map((f) => f.replace(/\.bench\.ts$/, "")));
/** Run only when named whole: the 100,000-session corpus takes ~14 GB of disk, and with the team server an hour. */
const NAMED_ONLY = new Set(["scale", "team-scale"]);
const files = all
  .filter((f) => {
    const section = f.replace(/\.bench\.ts$/, "");
    if (only.length === 0) return !NAMED_ONLY.has(section);
    return only.some(
      (name) => section === name || (!sections.has(name) && !NAMED_ONLY.has(section) && f.startsWith(name)),
    );
  })
  .sort();

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
};
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, "");
  process.stderr.write(`bench: ${name} …\n`);
  const mod = (await import(join(here, file))) as { run: () => Promise<Record<string, unknown>> };
  results[name] = await mod.run();
}
const json = `${JSON.stringify(results, null, 2)}\n`;
mkdirSync(join(here, "results"), { recursive: true });
writeFileSync(join(here, "results", "latest.json"), json);
process.stdout.write(json);
