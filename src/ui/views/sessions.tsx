// The Sessions page: the search form (`ctx search`'s query and filters), then its results as fork detection reports
// them (search/fork-report-schema.ts: match %, markers, the person's star, tags and note, fork commands), or, with no
// query, the sessions the person starred, tagged or noted (search/session-library.ts listLibrary). `Results` alone is
// the fragment the page's script fetches while the person types. Every value is transcript or person text: JSX
// escapes it; a link's target is only ever a path built here from a session id.
import type { ForkCandidate, RecentSession } from "../../core/search/fork-candidate-schema.ts";
import type { ForkDetectReport } from "../../search/fork-report-schema.ts";
import type { LibraryListing } from "../../search/library-schema.ts";
import type { SearchForm } from "../search-form.ts";
import { AnnotationForms, StarForm } from "./annotation-forms.tsx";
import { Command, Layout } from "./layout.tsx";
import { sessionHref } from "./links.ts";

export type SessionsOutcome =
  | { kind: "results"; report: ForkDetectReport }
  | { kind: "library"; listing: LibraryListing }
  | { kind: "error"; message: string; hint: string | null };

export interface SessionsPageProps {
  form: SearchForm;
  outcome: SessionsOutcome;
  /** This page's path and query: where a star or tag form brings the person back. */
  back: string;
}

export function SessionsPage({ form, outcome, back }: SessionsPageProps) {
  return (
    <Layout title={form.q === "" ? "Sessions" : form.q} current="sessions">
      <SearchFormView form={form} />
      <Results outcome={outcome} back={back} />
    </Layout>
  );
}

function SearchFormView({ form }: { form: SearchForm }) {
  return (
    <form id="search" class="search" method="get" action="/" aria-label="search">
      <label class="query">
        <span>Search your sessions</span>
        <input
          type="search"
          name="q"
          value={form.q}
          placeholder="what you are about to work on"
          autocomplete="off"
          autofocus
        />
      </label>
      <details class="filters" open={hasFilter(form)}>
        <summary>Filters</summary>
        <label>
          Project <input name="project" value={form.project} placeholder="this, a path or part of a name" />
        </label>
        <label>
          Since <input name="since" value={form.since} placeholder="7d, 2026-11-01" />
        </label>
        <label>
          Until <input name="until" value={form.until} placeholder="1d, 2026-12-01" />
        </label>
        <label>
          Tags <input name="tag" value={form.tag} placeholder="auth, db" />
        </label>
        <label>
          Markers <input name="marker" value={form.marker} placeholder="working-solution, pattern, waiting" />
        </label>
        <label>
          Where{" "}
          <select name="scope">
            {SCOPES.map(([value, label]) => (
              <option value={value} selected={form.scope === value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="starred" value="1" checked={form.starred} /> Starred only
        </label>
      </details>
      <button type="submit">Search</button>
    </form>
  );
}

/** The scopes of `ctx search --scope`, the setting's first. */
const SCOPES = [
  ["", "as set (search.scope)"],
  ["local", "this machine"],
  ["team", "the team"],
  ["all", "this machine and the team"],
] as const;

function hasFilter(form: SearchForm): boolean {
  return (
    form.project !== "" ||
    form.since !== "" ||
    form.until !== "" ||
    form.tag !== "" ||
    form.marker !== "" ||
    form.scope !== ""
  );
}

/** The results area: what the script replaces as the person types. */
export function Results({ outcome, back }: { outcome: SessionsOutcome; back: string }) {
  return (
    <section id="results" class="results" aria-live="polite">
      {outcome.kind === "error" ? (
        <p class="error" role="alert">
          {outcome.message}
          {outcome.hint === null ? null : <span class="hint"> ({outcome.hint})</span>}
        </p>
      ) : outcome.kind === "library" ? (
        <LibraryList listing={outcome.listing} back={back} />
      ) : (
        <ReportView report={outcome.report} back={back} />
      )}
    </section>
  );
}

function ReportView({ report, back }: { report: ForkDetectReport; back: string }) {
  return (
    <>
      {report.understood === undefined ? null : (
        <ul class="understood">
          {report.understood.lines.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      )}
      {report.notices.map((notice) => (
        <p class="notice">{notice}</p>
      ))}
      {report.results.length === 0 ? (
        <>
          <p class="empty">
            {report.indexedSessions === 0
              ? "The index is empty: run `ctx index` first."
              : `No session matches "${report.query}".`}
          </p>
          {report.recent.length === 0 ? null : <RecentList recent={report.recent} />}
        </>
      ) : (
        <ol class="result-list">
          {report.results.map((candidate) => (
            <ResultItem candidate={candidate} back={back} />
          ))}
        </ol>
      )}
    </>
  );
}

const MARKER_WORDS = { WORKING_SOLUTION: "working solution", PATTERN: "pattern", WAITING: "waiting" } as const;

function ResultItem({ candidate, back }: { candidate: ForkCandidate; back: string }) {
  const local = candidate.team === undefined || candidate.team.local;
  const markers = [...new Set(candidate.markers.map((marker) => MARKER_WORDS[marker.type]))];
  return (
    <li class={candidate.weak ? "result weak" : "result"}>
      <div class="result-head">
        <span class="score" title="match">
          {candidate.scorePercent}%
        </span>
        {candidate.starred ? (
          <span class="star" title="starred">
            ★
          </span>
        ) : null}
        {local ? (
          <a class="open" href={sessionHref(candidate.sessionId, candidate.matchUuid)}>
            {candidate.topic === "" ? "(untitled session)" : candidate.topic}
          </a>
        ) : (
          <span class="open">{candidate.topic}</span>
        )}
      </div>
      <p class="meta">
        <span>{candidate.cwd ?? candidate.project}</span> · <span>{candidate.relativeDate}</span> ·{" "}
        <span>{candidate.messageCount} messages</span>
        {candidate.weak ? <span class="weak-tag"> · weak match</span> : null}
        {candidate.team === undefined ? null : <span> · team: {candidate.team.author}</span>}
      </p>
      {markers.length === 0 && candidate.labels.length === 0 ? null : (
        <p class="chips">
          {markers.map((marker) => (
            <span class="chip marker">{marker}</span>
          ))}
          {candidate.labels.map((label) => (
            <span class="chip label">{label}</span>
          ))}
        </p>
      )}
      {candidate.note === null ? null : <p class="note">{candidate.note}</p>}
      {candidate.preview === "" ? null : <p class="snippet">{candidate.preview}</p>}
      {candidate.warning === null ? null : <p class="warning">{candidate.warning}</p>}
      <Command text={candidate.forkCommand} label="copy the fork command" />
      {candidate.forkAtCommand === null ? null : (
        <Command text={candidate.forkAtCommand} label="copy the command that forks at the match" />
      )}
      {local ? (
        <div class="result-actions">
          <StarForm sessionId={candidate.sessionId} starred={candidate.starred} back={back} />
          <details class="annotate">
            <summary>Tag or note</summary>
            <AnnotationForms
              sessionId={candidate.sessionId}
              labels={candidate.labels}
              note={candidate.note}
              back={back}
            />
          </details>
        </div>
      ) : null}
    </li>
  );
}

function RecentList({ recent }: { recent: readonly RecentSession[] }) {
  return (
    <>
      <h2>Recently active</h2>
      <ol class="result-list">
        {recent.map((session) => (
          <li class="result">
            <div class="result-head">
              {session.starred ? <span class="star">★</span> : null}
              <a class="open" href={sessionHref(session.sessionId)}>
                {session.topic === "" ? "(untitled session)" : session.topic}
              </a>
            </div>
            <p class="meta">
              {session.cwd ?? session.project} · {session.relativeDate}
            </p>
          </li>
        ))}
      </ol>
    </>
  );
}

function LibraryList({ listing, back }: { listing: LibraryListing; back: string }) {
  if (listing.sessions.length === 0) {
    return (
      <p class="empty">
        Type what you are about to work on. Sessions you star, tag or note are listed here when the box is empty.
      </p>
    );
  }
  return (
    <>
      <h2>Your library</h2>
      {listing.labels.length === 0 ? null : (
        <p class="chips">
          {listing.labels.map((entry) => (
            <a class="chip label" href={`/?tag=${encodeURIComponent(entry.label)}`}>
              {entry.label} ({entry.sessions})
            </a>
          ))}
        </p>
      )}
      <ol class="result-list">
        {listing.sessions.map((entry) => (
          <li class="result">
            <div class="result-head">
              {entry.starred ? <span class="star">★</span> : null}
              <a class="open" href={sessionHref(entry.sessionId)}>
                {entry.title ?? entry.sessionId}
              </a>
            </div>
            <p class="meta">
              {entry.cwd ?? entry.project ?? "not in the index"}
              {entry.lastActive === null ? null : ` · last active ${entry.lastActive.slice(0, 10)}`}
            </p>
            {entry.labels.length === 0 ? null : (
              <p class="chips">
                {entry.labels.map((label) => (
                  <span class="chip label">{label}</span>
                ))}
              </p>
            )}
            {entry.note === null ? null : <p class="note">{entry.note}</p>}
            <StarForm sessionId={entry.sessionId} starred={entry.starred} back={back} />
          </li>
        ))}
      </ol>
    </>
  );
}
