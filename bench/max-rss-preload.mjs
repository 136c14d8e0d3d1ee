// Loaded with `node --import` into a measured child process: on exit, writes its peak resident set size
// (process.resourceUsage().maxRSS, KiB) and CPU times to the file named by CTX_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.CTX_BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ maxRssKiB: usage.maxRSS, userCpuUs: usage.userCPUTime, systemCpuUs: usage.systemCPUTime }),
    );
  });
}
