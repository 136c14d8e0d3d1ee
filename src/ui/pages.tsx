// The routes of the Sessions and Session pages and the library's form posts: each reads its input, calls a port
// (./ports.ts) and renders a view. A change answers with a redirect back to the page it came from (303, so a reload
// does not post again); `back` must be a path of this page, never another site.
import type { Context, Hono } from "hono";
import { hasControlCharacter } from "../core/text/control-characters.ts";
import { isSessionId } from "../core/transcript/session-id.ts";
import { CtxError } from "../errors.ts";
import type { LibraryRequest } from "../search/session-library.ts";
import type { UiPorts } from "./ports.ts";
import { readSearchForm, searchRequestOf } from "./search-form.ts";
import { renderPage } from "./views/layout.tsx";
import { sessionHref } from "./views/links.ts";
import { SessionPage } from "./views/session.tsx";
import { Results, type SessionsOutcome, SessionsPage } from "./views/sessions.tsx";

/** The header the page's script sends for the results fragment alone. */
export const FRAGMENT_HEADER = "x-ctx-fragment";
const LIBRARY_OPS = ["star", "unstar", "tag", "untag", "note"] as const;
type LibraryOp = (typeof LIBRARY_OPS)[number];

export function addSessionPages(app: Hono, ports: UiPorts): void {
  app.get("/", async (c) => {
    const typing = c.req.header(FRAGMENT_HEADER) === "1";
    const back = pathAndQuery(c);
    const form = readSearchForm((name) => c.req.query(name));
    const outcome = await sessionsOutcome(ports, form, typing);
    const status = outcome.kind === "error" ? 400 : 200;
    if (typing) return c.html(String(<Results outcome={outcome} back={back} />), status);
    return c.html(renderPage(<SessionsPage form={form} outcome={outcome} back={back} />), status);
  });

  app.get("/session/:id", async (c) => {
    const at = c.req.query("at") ?? null;
    if (at !== null && !isSessionId(at)) {
      throw new CtxError("USAGE", "`at` takes a message's uuid", { hint: "open the session from a search result" });
    }
    const preview = await ports.preview(c.req.param("id"), at);
    return c.html(renderPage(<SessionPage preview={preview} at={at} back={pathAndQuery(c)} />));
  });

  app.post("/session/:id/:op", async (c) => {
    const op = c.req.param("op");
    if (!isLibraryOp(op)) return c.notFound();
    const body = await c.req.parseBody();
    const field = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
    const update = await ports.annotate(c.req.param("id"), libraryRequestOf(op, field));
    const back = field("back");
    return c.redirect(isOwnPath(back) ? back : sessionHref(update.sessionId), 303);
  });
}

async function sessionsOutcome(
  ports: UiPorts,
  form: ReturnType<typeof readSearchForm>,
  typing: boolean,
): Promise<SessionsOutcome> {
  try {
    const request = searchRequestOf(form);
    if (request === null) {
      const labels = form.tag.split(/[\s,]+/u).filter((tag) => tag !== "");
      return {
        kind: "library",
        listing: await ports.library({
          ...(form.starred ? { starred: true } : {}),
          ...(labels.length ? { labels } : {}),
        }),
      };
    }
    return { kind: "results", report: await ports.search(request, typing) };
  } catch (error) {
    // The person's mistake (a date it cannot read, a tag that is no tag) is said in the results area.
    if (error instanceof CtxError && (error.code === "USAGE" || error.code === "NOT_FOUND")) {
      return { kind: "error", message: error.message, hint: error.hint ?? null };
    }
    throw error;
  }
}

function isLibraryOp(op: string): op is LibraryOp {
  return (LIBRARY_OPS as readonly string[]).includes(op);
}

function libraryRequestOf(op: LibraryOp, field: (name: string) => string): LibraryRequest {
  switch (op) {
    case "star":
    case "unstar":
      return { op };
    case "tag":
    case "untag":
      return {
        op,
        tags: field("tags")
          .split(/[\s,]+/u)
          .filter((tag) => tag !== ""),
      };
    case "note": {
      const note = field("note").trim();
      return { op, note: note === "" ? null : note };
    }
  }
}

/** A path of this page: one slash, then anything but a second slash or a backslash (`//evil`, `/\evil` leave it). */
export function isOwnPath(path: string): boolean {
  return /^\/(?![/\\])/u.test(path) && !hasControlCharacter(path);
}

function pathAndQuery(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}
