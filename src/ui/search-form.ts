// The Sessions page's search form as the request `ctx search` makes (search/fork-detect.ts ForkDetectRequest): the
// same filters under the same names (project, since, until, tag, starred, marker, scope: the team's sessions), read from the URL's query so a
// search is a link. Values are checked as `ctx search` checks its flags; a bad one is a CtxError shown on the page.
import { MARKER_NAMES, parseMarkerNames } from "../core/search/memory-markers.ts";
import { CtxError } from "../errors.ts";
import type { ForkDetectRequest } from "../search/fork-detect.ts";
import { parseSearchScope } from "../search/search-scope.ts";

/** The form's fields as typed (empty strings for the blank ones), to fill the form again. */
export interface SearchForm {
  q: string;
  project: string;
  since: string;
  until: string;
  tag: string;
  marker: string;
  /** local, team or all; empty: the search.scope setting, as `ctx search` without --scope. */
  scope: string;
  starred: boolean;
}

/** How many sessions the page lists (the most `ctx search --limit` allows). */
export const PAGE_LIMIT = 20;
/** Longer queries are refused: a page's URL is no place for a document. */
const MAX_FIELD = 2_000;

export function readSearchForm(query: (name: string) => string | undefined): SearchForm {
  const field = (name: string) => {
    const value = (query(name) ?? "").trim();
    if (value.length > MAX_FIELD) throw new CtxError("USAGE", `the ${name} field is over ${MAX_FIELD} characters`);
    return value;
  };
  return {
    q: field("q"),
    project: field("project"),
    since: field("since"),
    until: field("until"),
    tag: field("tag"),
    marker: field("marker"),
    scope: field("scope"),
    starred: query("starred") === "1" || query("starred") === "on",
  };
}

/** The form as fork detection's request; null when there is nothing to search for (the library is listed instead). */
export function searchRequestOf(form: SearchForm): ForkDetectRequest | null {
  if (form.q === "") return null;
  const tags = form.tag
    .split(/[\s,]+/u)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  return {
    query: form.q,
    limit: PAGE_LIMIT,
    ...(form.project === "" ? {} : { project: form.project }),
    ...(form.since === "" ? {} : { since: form.since }),
    ...(form.until === "" ? {} : { until: form.until }),
    ...(tags.length === 0 ? {} : { tags }),
    ...(form.starred ? { starred: true } : {}),
    ...(form.marker === "" ? {} : { markers: markersOf(form.marker) }),
    ...(form.scope === "" ? {} : { scope: parseSearchScope(form.scope) }),
  };
}

function markersOf(text: string) {
  const markers = parseMarkerNames([text]);
  if (markers === null || markers.length === 0) {
    throw new CtxError("USAGE", `"${text.slice(0, 60)}" names no memory marker`, {
      hint: `use ${Object.keys(MARKER_NAMES).join(", ")} (several: comma-separated)`,
    });
  }
  return markers;
}

/** The form as a URL query (blank fields left out), for links and the address bar. */
export function searchQueryOf(form: SearchForm): string {
  const params = new URLSearchParams();
  for (const key of ["q", "project", "since", "until", "tag", "marker", "scope"] as const) {
    if (form[key] !== "") params.set(key, form[key]);
  }
  if (form.starred) params.set("starred", "1");
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
