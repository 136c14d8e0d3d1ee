// `ctx ui`'s server: fresh secrets, the app (./app.tsx) over the ports built here from the functions the CLI and the
// MCP server use (search/fork-detect.ts runForkDetect and its report, search/session-library.ts, the preview of
// search/session-preview.ts), served by ctx's one listener (http/listener.ts: loopback, a free port unless one is
// named). Returns the URL to open (with the one-time token) and a stop that frees the port.
import type { Config } from "../config/schema.ts";
import type { TeamCandidatesPort } from "../core/search/team-candidates.ts";
import { listenHttp } from "../http/listener.ts";
import { forkDetectReportOf, runForkDetect } from "../search/fork-detect.ts";
import { listLibrary, updateLibrary } from "../search/session-library.ts";
import { resolveSessionId } from "../search/session-naming.ts";
import { openIndexForPreview, readSessionPreview } from "../search/session-preview.ts";
import { createUiApp } from "./app.tsx";
import { defaultAssetsDir, loadUiAssets } from "./assets.ts";
import type { UiPorts } from "./ports.ts";
import { createSearchCollector } from "./search-collect.ts";
import { newSecret } from "./security.ts";
import { registerViewRoutes } from "./views/view-routes.tsx";

export interface UiServiceOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  projectRoot: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The team's candidates for a search whose scope asks for them (built by the shell: team/search-port.ts). */
  teamCandidates?: TeamCandidatesPort;
  /** The built assets' folder (default: dist/ui beside the bundle). */
  assetsDir?: string;
  warn: (line: string) => void;
}

export interface RunningUi {
  /** The address to open: loopback, the port, the one-time token. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startUi(options: UiServiceOptions): Promise<RunningUi> {
  const token = newSecret();
  const collector = createSearchCollector();
  let port = 0;
  const app = createUiApp({
    token,
    session: newSecret(),
    port: () => port,
    ports: uiPorts(options, collector),
    assets: loadUiAssets(options.assetsDir ?? defaultAssetsDir()),
    warn: options.warn,
    // The Chains, Context and Index pages, behind the same doors and in the same frame.
    mount: (app, render) =>
      registerViewRoutes(app, {
        env: options.env,
        projectRoot: options.projectRoot,
        config: () => options.config,
        render,
      }),
  });
  const listener = await listenHttp(app, {
    port: options.port ?? 0,
    hints: {
      addressInUse: "another program listens there: give another --port, or none for a free one",
      permission: "ports below 1024 need privileges: give a port above 1024, or none for a free one",
      other: "the page listens on 127.0.0.1 only",
    },
  });
  port = listener.port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    stop: () => {
      collector.stop();
      return listener.close();
    },
  };
}

/** The ports over the functions `ctx search`, `ctx session` and `ctx show` use. */
export function uiPorts(options: UiServiceOptions, collector = createSearchCollector()): UiPorts {
  const { config, env, projectRoot } = options;
  return {
    search: async (request, typing) => {
      const result = await runForkDetect(request, {
        config,
        env,
        projectRoot,
        now: () => Date.now(),
        ...(options.teamCandidates === undefined ? {} : { teamCandidates: options.teamCandidates }),
        // While the person types, the index is searched as it is: catching up is for the search they submit.
        ...(typing ? { refreshBudgetMs: 0 } : {}),
      });
      collector.searched();
      return forkDetectReportOf(result);
    },
    library: (filter) => listLibrary({ env, now: () => new Date() }, filter),
    preview: async (idText, atUuid) => {
      const index = openIndexForPreview(env);
      try {
        return await readSessionPreview(index, resolveSessionId(idText, { index }), { atUuid });
      } finally {
        index.close();
      }
    },
    annotate: (idText, request) =>
      updateLibrary({ env, now: () => new Date(), allowlist: config.redaction.allowlist }, idText, request),
  };
}
