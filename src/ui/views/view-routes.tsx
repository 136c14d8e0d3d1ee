// The three pages as Hono routes, for the ui server to mount after its own middleware (token, Host, CSP):
// `GET /chains?project=…`, `GET /context?session=…`, `GET /index` (the header's links, ui/views/layout.tsx NAV). Each loads its data from the functions the CLI
// uses (./chains-data.ts, ./context-data.ts, ./index-data.ts) and hands the view to the server's own page frame.
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { Config } from "../../config/schema.ts";
import { ChainsView } from "./chains.tsx";
import { loadChains } from "./chains-data.ts";
import { ContextView } from "./context.tsx";
import { loadProjectContext } from "./context-data.ts";
import { loadIndexPage } from "./index-data.ts";
import { IndexView } from "./index-page.tsx";

/** A query value longer than this is refused: a project filter or a session id is never near it. */
export const MAX_QUERY_VALUE = 256;

export interface ViewRouteDeps {
  env: NodeJS.ProcessEnv;
  projectRoot: string;
  /** Read per request, so a config change shows on the next load. */
  config: () => Config;
  now?: () => Date;
  /** The server's page frame (head, stylesheet links, navigation with `nav` marked current) around a view. */
  render: (
    c: Context,
    page: { title: string; nav: "chains" | "context" | "index" },
    body: Child,
  ) => Response | Promise<Response>;
}

export function registerViewRoutes(app: Hono, deps: ViewRouteDeps): void {
  app.get("/chains", async (c) => {
    const project = queryValue(c, "project");
    if (project === null) return tooLong(c);
    const data = await loadChains(deps.env, deps.projectRoot, project ?? "this");
    return deps.render(c, { title: "Chains", nav: "chains" }, <ChainsView data={data} />);
  });
  app.get("/context", async (c) => {
    const session = queryValue(c, "session");
    if (session === null) return tooLong(c);
    const data = await loadProjectContext(deps.env, deps.projectRoot, {
      config: deps.config(),
      now: deps.now?.() ?? new Date(),
      ...(session === undefined ? {} : { sessionId: session }),
    });
    return deps.render(c, { title: "This project's context", nav: "context" }, <ContextView data={data} />);
  });
  app.get("/index", async (c) => {
    const data = await loadIndexPage(deps.env, deps.projectRoot, deps.config());
    return deps.render(c, { title: "Index and team", nav: "index" }, <IndexView data={data} />);
  });
}

/** The query value trimmed (undefined when absent or empty), or null when it is too long to be meant. */
function queryValue(c: Context, name: string): string | undefined | null {
  const value = c.req.query(name)?.trim();
  if (value === undefined || value === "") return undefined;
  return value.length > MAX_QUERY_VALUE ? null : value;
}

function tooLong(c: Context): Response {
  return c.text(`a query value is limited to ${MAX_QUERY_VALUE} characters`, 400);
}
