// The `ctx ui` page's Hono app, composed of Hono's own middleware and ./security.ts's doors, in this order: the
// security headers (CSP without inline script or style) on every answer, refusals included; the Host check (DNS
// rebinding); the token and cookie; a body limit; changes only as same-origin form POSTs (Hono's csrf on Origin and
// Sec-Fetch-Site). Then the assets, the pages (./pages.tsx) and an error page.
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import type { Child } from "hono/jsx";
import { secureHeaders } from "hono/secure-headers";
import { CtxError, describeError } from "../errors.ts";
import type { UiAssets } from "./assets.ts";
import { addSessionPages } from "./pages.tsx";
import type { UiPorts } from "./ports.ts";
import { formPostsOnly, hostGuard, tokenGate, UI_CSP } from "./security.ts";
import { ErrorPage } from "./views/error-page.tsx";
import { Layout, type NavKey, renderPage } from "./views/layout.tsx";

/** The page frame another part's view is handed to (the header, this page's script and style sheet). */
export type FrameRender = (c: Context, page: { title: string; nav: NavKey }, body: Child) => Response;

export const renderFramed: FrameRender = (c, page, body) =>
  c.html(
    renderPage(
      <Layout title={page.title} current={page.nav}>
        {body}
      </Layout>,
    ),
  );

export interface UiAppOptions {
  /** The one-time token the printed URL carries. */
  token: string;
  /** What the cookie holds once the token was shown. */
  session: string;
  /** The port listened on (known once listening): the Host check's and the cookie's. */
  port: () => number;
  ports: UiPorts;
  assets: UiAssets;
  /** Logs a failure the page shows as a 500 (its detail stays in the log). */
  warn: (line: string) => void;
  /** More pages (Chains, Context, Index), mounted behind the same doors and framed by `render`. */
  mount?: (app: Hono, render: FrameRender) => void;
}

/** A form post's largest body: a note is at most 4 KiB, tags a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

export function cookieNameFor(port: number): string {
  return `ctx_ui_${port}`;
}

export function createUiApp(options: UiAppOptions): Hono {
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: { ...UI_CSP },
      xFrameOptions: "DENY",
      crossOriginResourcePolicy: "same-origin",
      // Plain http on loopback: HSTS would tell the browser to try https on 127.0.0.1 for every port.
      strictTransportSecurity: false,
    }),
  );
  app.use(hostGuard(options.port));
  let gate: ReturnType<typeof tokenGate> | null = null;
  app.use((c, next) => {
    gate ??= tokenGate({ token: options.token, session: options.session, cookieName: cookieNameFor(options.port()) });
    return gate(c, next);
  });
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.text("the request is too large\n", 413),
    }),
  );
  app.use(formPostsOnly());
  app.use(csrf());
  app.get("/assets/:name", (c) => {
    const asset = options.assets.get(c.req.param("name"));
    if (asset === null) return c.notFound();
    return c.body(asset.body, 200, { "Content-Type": asset.type, "Cache-Control": "no-cache" });
  });
  addSessionPages(app, options.ports);
  options.mount?.(app, renderFramed);
  app.notFound((c) => page(c, 404, "there is no such page here", null));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    if (error instanceof CtxError && (error.code === "USAGE" || error.code === "NOT_FOUND")) {
      return page(c, error.code === "NOT_FOUND" ? 404 : 400, error.message, error.hint ?? null);
    }
    options.warn(`ui: ${c.req.method} ${new URL(c.req.url).pathname} failed: ${describeError(error)}`);
    return page(c, 500, "this page failed; the terminal running `ctx ui` says why", null);
  });
  return app;
}

function page(c: Context, status: 400 | 404 | 500, message: string, hint: string | null): Response {
  return c.html(renderPage(<ErrorPage message={message} hint={hint} />), status);
}
