// The frame of every `ctx ui` page: the header's navigation (Sessions · Chains · Context · Index), the page's one
// script and one style sheet (built by `pnpm build` into dist/ui/, served from /assets/), and the main area. A page is
// a render function returning JSX (hono/jsx escapes every text and attribute value); renderPage makes the document.
import type { Child } from "hono/jsx";

/** The pages the header links to, by their routes (ui/app.ts serves them). */
export const NAV = [
  { key: "sessions", href: "/", label: "Sessions" },
  { key: "chains", href: "/chains", label: "Chains" },
  { key: "context", href: "/context", label: "Context" },
  { key: "index", href: "/index", label: "Index" },
] as const;
export type NavKey = (typeof NAV)[number]["key"];

export interface LayoutProps {
  title: string;
  /** The page the header marks as the current one. */
  current: NavKey | null;
  children?: Child;
}

export function Layout({ title, current, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title === "" ? "ctx" : `${title} · ctx`}</title>
        {/* No icon: without this the browser asks for /favicon.ico on every page. */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/style.css" />
        <script type="module" src="/assets/page.js" />
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/">
            ctx
          </a>
          <nav aria-label="pages">
            {NAV.map((item) => (
              <a href={item.href} aria-current={item.key === current ? "page" : undefined}>
                {item.label}
              </a>
            ))}
          </nav>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}

/** The whole document as text: the doctype, then the escaped tree. */
export function renderPage(node: unknown): string {
  return `<!doctype html>${String(node)}`;
}

/** A button that copies `text` (the page's script, navigator.clipboard); without the script, the text stays
 *  selectable beside it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  return (
    <button type="button" class="copy" data-copy={text} aria-label={label} hidden>
      copy
    </button>
  );
}

/** A command shown as code with its copy button. */
export function Command({ text, label }: { text: string; label: string }) {
  return (
    <div class="command">
      <code>{text}</code>
      <CopyButton text={text} label={label} />
    </div>
  );
}
