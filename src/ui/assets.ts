// The page's static files (its one script and one style sheet), built by `pnpm build` from src/ui/assets/ into
// dist/ui/ and shipped in the package; read once when the server starts and served from memory. Nothing is fetched
// from anywhere at run time.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface UiAsset {
  body: string;
  type: string;
}

export interface UiAssets {
  get(name: string): UiAsset | null;
}

const TYPES: Readonly<Record<string, string>> = {
  "page.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

/** The built assets' folder: beside the bundle (dist/ui/), or dist/ui/ of the checkout when run from source. */
export function defaultAssetsDir(): string {
  const beside = fileURLToPath(new URL("./ui/", import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL("../../dist/ui/", import.meta.url));
}

/** The assets of `dir`; a name not built (or not one of the page's) is null. */
export function loadUiAssets(dir: string): UiAssets {
  const loaded = new Map<string, UiAsset>();
  for (const [name, type] of Object.entries(TYPES)) {
    const path = `${dir.endsWith("/") ? dir : `${dir}/`}${name}`;
    if (existsSync(path)) loaded.set(name, { body: readFileSync(path, "utf8"), type });
  }
  return { get: (name) => loaded.get(name) ?? null };
}
