// Each door of the page on its own, on a small Hono app with one route: the Host check, the token's one exchange for
// the cookie (its flags, the redirect that drops it), wrong and missing secrets, the constant-time comparison, and
// that only a form POST may change anything.
import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { allowedHosts, formPostsOnly, hostGuard, newSecret, sameSecret, tokenGate } from "./security.ts";

const PORT = 41_234;
const TOKEN = newSecret();
const SESSION = newSecret();
const COOKIE = `ctx_ui_${PORT}`;

function appWith(...middleware: MiddlewareHandler[]): Hono {
  const app = new Hono();
  for (const handler of middleware) app.use(handler);
  app.all("/*", (c) => c.text("reached"));
  return app;
}

const request = (app: Hono, path: string, init: RequestInit & { host?: string } = {}) =>
  app.request(`http://127.0.0.1:${PORT}${path}`, {
    ...init,
    headers: { host: init.host ?? `127.0.0.1:${PORT}`, ...(init.headers as Record<string, string>) },
  });

describe("hostGuard", () => {
  const app = appWith(hostGuard(() => PORT));

  it("answers the loopback names of this port", async () => {
    for (const host of allowedHosts(PORT)) expect((await request(app, "/", { host })).status).toBe(200);
    expect((await request(app, "/", { host: `LOCALHOST:${PORT}` })).status).toBe(200);
  });

  it("refuses a rebound domain, another port, a host without a port and no host at all", async () => {
    for (const host of [
      `evil.example:${PORT}`,
      "127.0.0.1:80",
      "127.0.0.1",
      "localhost",
      `127.0.0.1:${PORT}.evil`,
      "",
    ]) {
      const response = await request(app, "/", { host });
      expect(response.status, host).toBe(421);
      expect(await response.text()).not.toBe("reached");
    }
  });
});

describe("tokenGate", () => {
  const gate = () => appWith(tokenGate({ token: TOKEN, session: SESSION, cookieName: COOKIE }));

  it("exchanges the token once for an HttpOnly, SameSite=Strict cookie and a redirect without it", async () => {
    const app = gate();
    const first = await request(app, `/session/abc?at=x&token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/session/abc?at=x");
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toBe(`${COOKIE}=${SESSION}; Path=/; HttpOnly; SameSite=Strict`);
    expect(cookie).not.toContain(TOKEN);
    // The link works once: a second use (a leaked history entry, another browser) is refused; opened again in the
    // browser that holds the cookie, it goes to the page (no new cookie).
    expect((await request(app, `/?token=${TOKEN}`)).status).toBe(403);
    const again = await request(app, `/?q=a&token=${TOKEN}`, { headers: { cookie: `${COOKIE}=${SESSION}` } });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/?q=a");
    expect(again.headers.get("set-cookie")).toBeNull();
    const forged = await request(app, `/?token=${TOKEN}`, { headers: { cookie: `${COOKIE}=forged` } });
    expect(forged.status).toBe(403);
    const withCookie = await request(app, "/", { headers: { cookie: `${COOKIE}=${SESSION}` } });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.text()).toBe("reached");
  });

  it("refuses no secret with 401, and a wrong token or cookie with 403", async () => {
    const app = gate();
    expect((await request(app, "/")).status).toBe(401);
    expect((await request(app, "/?token=")).status).toBe(403);
    expect((await request(app, `/?token=${TOKEN.slice(1)}`)).status).toBe(403);
    expect((await request(app, `/?token=${TOKEN}x`)).status).toBe(403);
    expect((await request(app, "/", { headers: { cookie: `${COOKIE}=${TOKEN}` } })).status).toBe(403);
    expect((await request(app, "/", { headers: { cookie: `${COOKIE}=` } })).status).toBe(403);
    // Another page's cookie (another `ctx ui` on another port) is not this one's.
    expect((await request(app, "/", { headers: { cookie: `ctx_ui_1=${SESSION}` } })).status).toBe(401);
    // A wrong token does not spend the right one.
    expect((await request(app, `/?token=${TOKEN}`)).status).toBe(303);
  });
});

describe("sameSecret", () => {
  it("compares whole secrets of any length", () => {
    expect(sameSecret(TOKEN, TOKEN)).toBe(true);
    expect(sameSecret(TOKEN, `${TOKEN} `)).toBe(false);
    expect(sameSecret("", TOKEN)).toBe(false);
    expect(newSecret()).not.toBe(newSecret());
    expect(newSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("formPostsOnly", () => {
  const app = appWith(formPostsOnly());
  const form = { "content-type": "application/x-www-form-urlencoded" };

  it("lets GET, HEAD and a form POST through", async () => {
    expect((await request(app, "/")).status).toBe(200);
    expect((await request(app, "/", { method: "HEAD" })).status).toBe(200);
    expect((await request(app, "/", { method: "POST", headers: form, body: "a=1" })).status).toBe(200);
  });

  it("refuses every other method, and a POST that is not a form", async () => {
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
      expect((await request(app, "/", { method, headers: form, body: "a=1" })).status, method).toBe(405);
    }
    const json = { "content-type": "application/json" };
    expect((await request(app, "/", { method: "POST", headers: json, body: "{}" })).status).toBe(415);
    expect((await request(app, "/", { method: "POST", body: "a=1" })).status).toBe(415);
  });
});
