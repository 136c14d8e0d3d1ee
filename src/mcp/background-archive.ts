// `ctx serve` keeps the transcript archive current: a minute after start and then every hour it checks
// whether a pass ran within the last day, and if not starts one as a detached, nice'd child
// (store/archive/archive-schedule.ts), so the server's event loop never compresses anything.
import type { Config } from "../config/schema.ts";
import { describeError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { SERVE_ARCHIVE_INTERVAL_MS, startArchivePassIfDue } from "../store/archive/archive-schedule.ts";

const FIRST_CHECK_MS = 60_000;
const CHECK_EVERY_MS = 3_600_000;

export function startBackgroundArchive(options: {
  config: Config;
  env: NodeJS.ProcessEnv;
  cliPath: string;
  execPath: string;
  projectRoot: string;
  logger: Logger;
}): { stop: () => void } | null {
  if (!options.config.archive.enabled || options.cliPath === "") return null;
  const check = () => {
    startArchivePassIfDue({
      env: options.env,
      execPath: options.execPath,
      cliPath: options.cliPath,
      cwd: options.projectRoot,
      now: new Date(),
      intervalMs: SERVE_ARCHIVE_INTERVAL_MS,
    })
      .then((pid) => {
        if (pid !== null) options.logger.info(`transcript archive pass started (pid ${pid})`);
      })
      .catch((error: unknown) => options.logger.warn(`transcript archive pass not started: ${describeError(error)}`));
  };
  const first = setTimeout(check, FIRST_CHECK_MS);
  const every = setInterval(check, CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
