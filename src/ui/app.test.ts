// The whole app over a real index of the fixture transcripts and a hostile one, through the real ports (fork
// detection, the library, the preview): the CSP on every answer, refusals included; changes only as same-origin form
// POSTs within the body limit; the library's forms; the pages with hostile text in every field, escaped.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_SESSION, layOutClaudeDir } from "../../tests/helpers/claude-projects.ts";
import {
  foreignMarkup,
  HOSTILE,
  HOSTILE_SESSION,
  HOSTILE_WORD,
  writeHostileSession,
} from "../../tests/helpers/hostile-html.ts";
import { defaultConfig } from "../config/defaults.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { cookieNameFor, createUiApp, MAX_BODY_BYTES } from "./app.tsx";
import { defaultAssetsDir, loadUiAssets } from "./assets.ts";
import { newSecret } from "./security.ts";
import { uiPorts } from "./service.ts";

const PORT = 40_999;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const root = mkdtempSync(join(tmpdir(), "ctx-ui-app-"));
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home") };
const token = newSecret();
const session = newSecret();
const cookie = `${cookieNameFor(PORT)}=${session}`;
const warnings: string[] = [];
const app = createUiApp({
  token,
  session,
  port: () => PORT,
  ports: uiPorts({ config: defaultConfig(), env, projectRoot: root, warn: () => {} }),
  assets: loadUiAssets(defaultAssetsDir()),
  warn: (line) => warnings.push(line),
});

beforeAll(async () => {
  const claudeDir = layOutClaudeDir(root);
  writeHostileSession(claudeDir, root);
  await syncIndex({ claudeDir, dbPath: join(env.CTX_HOME, "index.db") });
});
afterAll(() => expect(warnings).toEqual([]));

function send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return app.request(`${ORIGIN}${path}`, {
    ...init,
    headers: { host: `127.0.0.1:${PORT}`, cookie, ...init.headers },
  });
}

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return send(path, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
  });
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe("the ui app", () => {
  it("sends the CSP and the other security headers on every answer, refusals included", async () => {
    const answers = [
      await send("/"),
      await send("/?q=phoenix"),
      await send(`/session/${LONG_SESSION}`),
      await send("/assets/page.js"),
      await send("/nowhere"),
      await send("/", { headers: { cookie: "" } }),
      await send("/", { headers: { cookie: `${cookieNameFor(PORT)}=wrong` } }),
      await send("/", { headers: { host: "evil.example" } }),
      await post("/session/4d56/star", "back=/", { origin: "http://evil.example" }),
      await post("/session/4d56/note", `note=${"a".repeat(MAX_BODY_BYTES + 1)}`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 404, 401, 403, 421, 403, 413]);
    for (const answer of answers) {
      expect(answer.headers.get("content-security-policy")).toBe(CSP);
      expect(answer.headers.get("x-frame-options")).toBe("DENY");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("refuses a cross-site change and a change with neither Origin nor Sec-Fetch-Site; nothing is stored", async () => {
    expect((await post(`/session/${LONG_SESSION}/star`, "back=/", { origin: "http://evil.example" })).status).toBe(403);
    const crossSite = { origin: "null", "sec-fetch-site": "cross-site" };
    expect((await post(`/session/${LONG_SESSION}/star`, "back=/", crossSite)).status).toBe(403);
    const bare = await send(`/session/${LONG_SESSION}/star`, {
      method: "POST",
      body: "back=/",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(bare.status).toBe(403);
    expect((await post(`/session/${LONG_SESSION}/star`, "", { "content-type": "application/json" })).status).toBe(415);
    const library = await (await send("/")).text();
    expect(library).not.toContain("Your library");
  });

  it("stars, tags and notes a session through the library, and comes back to the page it was on", async () => {
    const starred = await post("/session/4d5611e5/star", `back=${encodeURIComponent("/?q=phoenix")}`, {
      "sec-fetch-site": "same-origin",
    });
    expect(starred.status).toBe(303);
    expect(starred.headers.get("location")).toBe("/?q=phoenix");
    const tagged = await post("/session/4d5611e5/tag", "tags=Auth+db&back=//evil.example/");
    // A `back` that leaves this page is not followed: the session's own page instead.
    expect(tagged.headers.get("location")).toBe(`/session/${LONG_SESSION}`);
    await post("/session/4d5611e5/note", `note=${encodeURIComponent("the renderer rewrite")}&back=/`);
    const page = await (await send(`/session/${LONG_SESSION}`)).text();
    expect(page).toContain('aria-pressed="true"');
    expect(page).toContain('<span class="chip label">auth</span><span class="chip label">db</span>');
    expect(page).toContain('<dd class="note">the renderer rewrite</dd>');
    const library = await (await send("/?tag=auth")).text();
    expect(library).toContain("Your library");
    expect(library).toContain(`href="/session/${LONG_SESSION}"`);
    const refused = await post("/session/4d5611e5/tag", `tags=${encodeURIComponent("a".repeat(41))}&back=/`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('class="error"');
    const unknown = await post("/session/zzzzzz/star", "back=/");
    expect(unknown.status).toBe(404);
  });

  it("searches as `ctx search` does: the page, and the fragment the script asks for", async () => {
    const page = await (await send("/?q=start+phoenix+in+background")).text();
    expect(page).toMatch(/<span class="score" title="match">\d+%<\/span>/);
    expect(page).toContain("start phoenix in background");
    expect(page).toContain("--resume-session-at");
    const fragment = await (await send("/?q=phoenix", { headers: { "x-ctx-fragment": "1" } })).text();
    expect(fragment.startsWith('<section id="results"')).toBe(true);
    expect(fragment).not.toContain("<html");
    const bad = await send("/?q=phoenix&since=yesterday-ish");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('class="error"');
    // The team's sessions, as `ctx search --scope team` asks: this machine joined no team, and the page says so.
    const team = await send("/?q=phoenix&scope=team");
    expect(team.status).toBe(400);
    expect(await team.text()).toMatch(/<p class="error" role="alert">[^<]*team/);
    expect((await send("/?q=phoenix&scope=everywhere")).status).toBe(400);
    expect(await (await send("/?q=phoenix&scope=local")).text()).toContain('<option value="local" selected="">');
  });

  it("renders hostile transcript text, tags and notes as text in the results and the session page", async () => {
    const hostileNote = `${HOSTILE.img} ${HOSTILE.link}`;
    await post(`/session/${HOSTILE_SESSION}/note`, `note=${encodeURIComponent(hostileNote)}&back=/`);
    await post(`/session/${HOSTILE_SESSION}/tag`, `tags=${encodeURIComponent("<script>alert(1)</script>")}&back=/`);
    const results = await (await send(`/?q=${HOSTILE_WORD}`)).text();
    const preview = await (await send(`/session/${HOSTILE_SESSION}`)).text();
    const library = await (await send("/")).text();
    for (const html of [results, preview, library]) {
      expect(foreignMarkup(html)).toEqual([]);
      expect(html).toContain("&lt;img src=x onerror=");
    }
    expect(results).toContain(HOSTILE_SESSION);
    expect(preview).toContain("&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;");
    expect(preview).toContain("&lt;svg onload=alert(&#39;svg&#39;)&gt;");
    expect(preview).toContain("&lt;/style&gt;&lt;style&gt;body{display:none");
    expect(preview).toContain("&quot;&gt;&lt;script&gt;alert(&#39;attr&#39;)");
    expect(preview).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("serves the built script and style sheet, and nothing else under /assets", async () => {
    const script = await send("/assets/page.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("navigator.clipboard");
    expect((await send("/assets/style.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await send("/assets/..%2Fctx.js")).status).toBe(404);
  });
});

describe("another part's pages", () => {
  it("are mounted behind the same doors and framed by the page's layout", async () => {
    const mounted = createUiApp({
      token,
      session,
      port: () => PORT,
      ports: uiPorts({ config: defaultConfig(), env, projectRoot: root, warn: () => {} }),
      assets: loadUiAssets(defaultAssetsDir()),
      warn: () => {},
      mount: (inner, render) =>
        inner.get("/chains", (c) => render(c, { title: "Chains", nav: "chains" }, HOSTILE.script)),
    });
    const at = (headers: Record<string, string>) =>
      mounted.request(`${ORIGIN}/chains`, { headers: { host: `127.0.0.1:${PORT}`, ...headers } });
    expect((await at({})).status).toBe(401);
    const page = await at({ cookie });
    expect(page.headers.get("content-security-policy")).toBe(CSP);
    const html = await page.text();
    expect(html).toContain('<a href="/chains" aria-current="page">Chains</a>');
    expect(html).toContain("&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;");
    expect(foreignMarkup(html)).toEqual([]);
  });
});
