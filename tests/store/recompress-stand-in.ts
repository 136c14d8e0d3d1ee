// Stand-in for the ctx CLI in archive-worker.test.ts: run as `node recompress-stand-in.ts snapshot recompress
// <id> --project <root>`. Records what it was started with in <root>/started.json, waits until
// <root>/release exists, then writes <root>/done and exits: the test decides how long it lives.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

const args = process.argv.slice(2);
const root = args[args.indexOf("--project") + 1] ?? ".";
const sessionId = Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[3]);
writeFileSync(
  join(root, "started.json"),
  JSON.stringify({
    args,
    cwd: process.cwd(),
    pid: process.pid,
    sessionId,
    hooksDisabled: process.env.CTX_HOOKS_DISABLED ?? null,
  }),
);
// Never outlive the test: give up when its folder is gone or after a minute.
const startedAt = Date.now();
while (!existsSync(join(root, "release"))) {
  if (!existsSync(root) || Date.now() - startedAt > 60_000) process.exit(1);
  await delay(10);
}
writeFileSync(join(root, "done"), "");
