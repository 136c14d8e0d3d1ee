// The three pages through a real Hono app (app.request: the router, the query parsing and c.html), over the real
// fork index: each answers 200 with its view in the server's frame, a chain node links to its session, and a query
// value too long to be meant is refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildForkFixtureIndex, E2E_ORIGINAL } from "../../../tests/helpers/fork-fixture-index.ts";
import { expectInert } from "../../../tests/helpers/hostile-views.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { MAX_QUERY_VALUE, registerViewRoutes } from "./view-routes.tsx";

let root: string;
let app: Hono;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-ui-routes-"));
  const env = await buildForkFixtureIndex(root);
  const projectRoot = join(root, "repo");
  app = new Hono();
  registerViewRoutes(app, {
    env,
    projectRoot,
    config: defaultConfig,
    // A frame like the server's: the title as text, the view inside.
    render: (c, page, body) =>
      c.html(`<main data-nav="${page.nav}"><h1>${page.title.replace(/[<>&"']/g, "")}</h1>${String(body)}</main>`),
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("registerViewRoutes", () => {
  it("serves the chains of the project asked for, each node a link to its session", async () => {
    const response = await app.request("/chains?project=ctx-e2e");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain(`href="/session/${E2E_ORIGINAL}"`);
    expect(html.match(/class="chain-node /g)).toHaveLength(3);
    expect(html).toMatch(/^<main data-nav="chains"><h1>Chains<\/h1>/);
    expectInert(html.replace(/^<main data-nav="chains">|<\/main>$/g, ""));
  });

  it("serves the context page (no session seen here yet) and the index page", async () => {
    const context = await app.request("/context");
    expect(context.status).toBe(200);
    expect(await context.text()).toContain("No sessions seen in this project");
    const index = await app.request("/index");
    expect(index.status).toBe(200);
    expect(await index.text()).toContain("<dt>sessions</dt><dd>5</dd>");
  });

  it("refuses a query value too long to be meant, and names an unknown session in its part", async () => {
    const long = await app.request(`/chains?project=${"x".repeat(MAX_QUERY_VALUE + 1)}`);
    expect(long.status).toBe(400);
    const unknown = await app.request(`/context?session=${encodeURIComponent("<script>")}`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("no session &lt;script&gt; in this project");
  });
});
