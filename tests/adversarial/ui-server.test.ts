// `ctx ui` as a real process (issue 35): the built binary started with --json over a world with a real index, then
// probed over loopback as a browser on another site, a DNS-rebinding page or a local program would: no token, a wrong
// token, another Host header, a cross-site POST, an oversized body: each refused; the cookie's flags; the CSP on every
// answer. It stops on SIGTERM and on SIGINT with its port free after, and two run at once.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assertBuilt, CTX_BIN } from "../e2e/ctx-process.ts";
import { LONG_SESSION, layOutClaudeDir } from "../helpers/claude-projects.ts";
import { foreignMarkup, HOSTILE_SESSION, HOSTILE_WORD, writeHostileSession } from "../helpers/hostile-html.ts";
import { makeWorld, runCtxIn, type World } from "./harness.ts";

interface Running {
  child: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
}

let world: World | undefined;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  world?.cleanup();
  world = undefined;
});

async function indexedWorld(): Promise<World> {
  const w = makeWorld("current", "ui");
  // The fixture sessions and a hostile one in a Claude folder of the world's own, which every ctx process reads.
  w.env.CLAUDE_CONFIG_DIR = layOutClaudeDir(w.base);
  writeHostileSession(w.env.CLAUDE_CONFIG_DIR, w.base);
  const index = await runCtxIn(w, ["index"]);
  expect(index.code, index.stderr).toBe(0);
  return w;
}

function startUi(w: World, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  assertBuilt();
  const child = spawn(process.execPath, [CTX_BIN, "ui", "--json", ...args], {
    cwd: w.repo,
    env: { ...process.env, ...w.env, ...env },
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const { url, port, pid } = JSON.parse(out) as { url: string; port: number; pid: number };
      expect(pid).toBe(child.pid);
      resolve({ child, url, port, stderr: () => err });
    });
    child.on("exit", (code) => reject(new Error(`ctx ui exited ${code}: ${err}`)));
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; holdBody?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const length = options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(options.body)) };
    const req = request(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { ...length, ...options.headers } },
      (res) => {
        if (options.holdBody === true) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
          return;
        }
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    if (options.holdBody === true) {
      // The headers alone, the body announced and held back: a server that refuses it by its length answers now
      // (sent whole, the body would race the answer and the connection the server closes after it).
      req.on("response", () => req.destroy());
      req.flushHeaders();
      return;
    }
    req.end(options.body);
  });
}

/** The token exchanged for the cookie, as a browser does on the first load. */
async function login(running: Running): Promise<string> {
  const first = await call(running.port, new URL(running.url).pathname + new URL(running.url).search);
  expect(first.status).toBe(303);
  const cookie = String(first.headers["set-cookie"]).split(";")[0] ?? "";
  expect(cookie).toMatch(new RegExp(`^ctx_ui_${running.port}=`));
  return cookie;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe("ctx ui, probed as a stranger", () => {
  it("refuses no token, a wrong token, a rebound Host, a cross-site POST and an oversized body", async () => {
    world = await indexedWorld();
    const running = await startUi(world);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const answers: Answer[] = [];
    const keep = async (answer: Promise<Answer>) => {
      const got = await answer;
      answers.push(got);
      return got;
    };
    expect((await keep(call(running.port, "/"))).status).toBe(401);
    expect((await keep(call(running.port, "/?token=not-the-token"))).status).toBe(403);
    const first = await keep(call(running.port, new URL(running.url).search.replace(/^/, "/")));
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe("/");
    const setCookie = String(first.headers["set-cookie"]);
    expect(setCookie).toMatch(
      new RegExp(`^ctx_ui_${running.port}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`),
    );
    const cookie = setCookie.split(";")[0] ?? "";
    // The link works once.
    expect((await keep(call(running.port, new URL(running.url).search.replace(/^/, "/")))).status).toBe(403);
    expect((await keep(call(running.port, "/", { headers: { cookie: `ctx_ui_${running.port}=forged` } }))).status).toBe(
      403,
    );
    const rebound = await keep(call(running.port, "/", { headers: { cookie, host: `evil.example:${running.port}` } }));
    expect(rebound.status).toBe(421);
    const page = await keep(call(running.port, "/?q=phoenix", { headers: { cookie } }));
    expect(page.status).toBe(200);
    expect(page.body).toContain('class="score"');
    const form = { cookie, "content-type": "application/x-www-form-urlencoded" };
    const crossSite = await keep(
      call(running.port, `/session/${LONG_SESSION}/star`, {
        method: "POST",
        headers: { ...form, origin: "http://evil.example", "sec-fetch-site": "cross-site" },
        body: "back=/",
      }),
    );
    expect(crossSite.status).toBe(403);
    const huge = await keep(
      call(running.port, `/session/${LONG_SESSION}/note`, {
        method: "POST",
        headers: { ...form, origin: `http://127.0.0.1:${running.port}` },
        body: `note=${"a".repeat(2 * 1024 * 1024)}`,
        holdBody: true,
      }),
    );
    expect(huge.status).toBe(413);
    const library = await runCtxIn(world, ["session", "list", "--json"]);
    expect(JSON.parse(library.stdout || '{"sessions":[]}').sessions).toEqual([]);
    // Same-origin, it works.
    const star = await keep(
      call(running.port, `/session/${LONG_SESSION}/star`, {
        method: "POST",
        headers: { ...form, origin: `http://127.0.0.1:${running.port}` },
        body: "back=/",
      }),
    );
    expect(star.status).toBe(303);
    const listed = await runCtxIn(world, ["session", "list", "--json"]);
    expect(JSON.parse(listed.stdout).sessions[0]).toMatchObject({ sessionId: LONG_SESSION, starred: true });
    for (const answer of answers) expect(answer.headers["content-security-policy"]).toBe(CSP);
    running.child.kill("SIGTERM");
  });

  it("shows a hostile session's text as text: in the results, the typing fragment and its page", async () => {
    world = await indexedWorld();
    const running = await startUi(world);
    const cookie = await login(running);
    const pages = await Promise.all([
      call(running.port, `/?q=${HOSTILE_WORD}`, { headers: { cookie } }),
      call(running.port, `/?q=${HOSTILE_WORD}`, { headers: { cookie, "x-ctx-fragment": "1" } }),
      call(running.port, `/session/${HOSTILE_SESSION}`, { headers: { cookie } }),
    ]);
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body).toContain("&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;");
      expect(foreignMarkup(page.body)).toEqual([]);
    }
    running.child.kill("SIGTERM");
  });

  it("stops on SIGTERM and on SIGINT with its port free, and two run at once with cookies of their own", async () => {
    world = await indexedWorld();
    const [one, two] = await Promise.all([startUi(world), startUi(world)]);
    if (one === undefined || two === undefined) throw new Error("not started");
    expect(one.port).not.toBe(two.port);
    const [cookieOne, cookieTwo] = [await login(one), await login(two)];
    expect((await call(one.port, "/", { headers: { cookie: cookieOne } })).status).toBe(200);
    expect((await call(two.port, "/", { headers: { cookie: cookieTwo } })).status).toBe(200);
    // One page's cookie opens only that page.
    expect((await call(two.port, "/", { headers: { cookie: cookieOne } })).status).toBe(401);
    for (const [running, signal] of [
      [one, "SIGTERM"],
      [two, "SIGINT"],
    ] as const) {
      const exited = new Promise<number | null>((resolve) => running.child.on("exit", (code) => resolve(code)));
      running.child.kill(signal);
      expect(await exited, running.stderr()).toBe(0);
      expect(running.stderr()).toContain("ui: stopped");
      expect(await portIsFree(running.port)).toBe(true);
    }
  });

  it("--open hands the link to the opener on PATH, and goes on without one", async () => {
    world = await indexedWorld();
    const bin = join(world.base, "bin");
    const opened = join(world.base, "opened.txt");
    mkdirSync(bin);
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const withOpener = await startUi(world, ["--open"], { PATH: `${bin}:${process.env.PATH ?? ""}` });
    await vi.waitFor(
      () => expect(existsSync(opened) ? readFileSync(opened, "utf8") : "", withOpener.stderr()).toBe(withOpener.url),
      10_000,
    );
    const without = await startUi(world, ["--open"], { PATH: dirname(process.execPath) });
    await vi.waitFor(
      () => expect(without.stderr()).toContain("ui: xdg-open is not on PATH; open the link yourself"),
      10_000,
    );
    expect((await call(without.port, "/")).status).toBe(401);
    withOpener.child.kill("SIGTERM");
    without.child.kill("SIGTERM");
  });

  it("says so when the port asked for is taken", async () => {
    world = await indexedWorld();
    const running = await startUi(world);
    const taken = await runCtxIn(world, ["ui", "--port", String(running.port)]);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(`cannot listen on 127.0.0.1:${running.port} (EADDRINUSE)`);
    const bad = await runCtxIn(world, ["ui", "--port", "http"]);
    expect(bad.stderr).toContain("--port must be a port number");
    running.child.kill("SIGTERM");
  });
});
