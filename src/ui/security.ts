// The `ctx ui` page's doors, each a Hono middleware of its own (docs/ui.md "Security"): the Host header must name this
// listener on loopback (a DNS-rebinding page's Host names its own domain), the first visit shows the one-time token
// printed in the URL and gets a cookie for it, every later request shows the cookie, and a change is a same-origin form
// POST (Hono's csrf checks Origin / Sec-Fetch-Site; this module refuses every other way to change something).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";

/** The page's Content-Security-Policy: its own script and style only, nothing inline, nothing from the network. */
export const UI_CSP: Readonly<Record<string, string[]>> = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** The hosts a request may name: this listener's port on the loopback names a browser uses. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Refuses (421) a request whose Host is not this listener on loopback: a rebound domain's page names its own. */
export function hostGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const host = (c.req.header("host") ?? "").toLowerCase();
    if (!allowedHosts(port()).includes(host)) return c.text("this page answers only on its loopback address\n", 421);
    await next();
  };
}

/** A fresh secret, URL- and cookie-safe: 32 random bytes. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Compares in constant time, whatever the lengths (both sides hashed to 32 bytes first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export interface TokenGateOptions {
  /** The token printed in the URL: good for one exchange. */
  token: string;
  /** What the cookie holds once the token was shown (never the token itself). */
  session: string;
  /** The cookie's name: one per port, since a browser keeps cookies by host, not port (two pages at once). */
  cookieName: string;
}

/**
 * `?token=` on the first URL is exchanged once for an HttpOnly, SameSite=Strict cookie and a redirect to the same
 * path without it (so the token leaves the address bar and the history); later requests need the cookie (the link
 * opened again where the cookie is goes to the page). No token and no cookie: 401. A wrong or spent token without
 * the cookie, a wrong cookie: 403.
 */
export function tokenGate(options: TokenGateOptions): MiddlewareHandler {
  let spent = false;
  return async (c, next) => {
    const shown = c.req.query("token");
    const cookie = getCookie(c, options.cookieName);
    if (shown !== undefined) {
      // The printed link opened again in the browser that holds the cookie: the page, without the token.
      const holder = cookie !== undefined && sameSecret(cookie, options.session);
      if (!holder) {
        if (spent || !sameSecret(shown, options.token)) return refuse(c, 403, "this link's token is wrong or was used");
        spent = true;
        setCookie(c, options.cookieName, options.session, { httpOnly: true, sameSite: "Strict", path: "/" });
      }
      const url = new URL(c.req.url);
      url.searchParams.delete("token");
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (cookie === undefined) return refuse(c, 401, "open the link `ctx ui` printed (it holds the token)");
    if (!sameSecret(cookie, options.session)) return refuse(c, 403, "this cookie is not this page's");
    await next();
  };
}

function refuse(c: Context, status: 401 | 403, why: string): Response {
  return c.text(`${why}\n`, status);
}

/** Only GET and HEAD read, and only a form POST changes: any other method is 405, any other POST body 415. */
export function formPostsOnly(): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    if (method !== "POST") return c.text("method not allowed\n", 405, { Allow: "GET, HEAD, POST" });
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (!type.startsWith("application/x-www-form-urlencoded")) return c.text("a change is a form post\n", 415);
    await next();
  };
}
