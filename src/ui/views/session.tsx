// A session's page: the preview model (core/library/preview-schema.ts, read by search/session-preview.ts
// readSessionPreview) as HTML, the fourth renderer of the one model beside `ctx show`'s text, the bounded text and
// the picker's label (core/library/preview-text.ts, whose date, path and footer wording it shares). The exchange a
// search matched is marked and scrolled to; each exchange offers the command that forks right after it. Every text
// is the transcript's: JSX escapes it, and line breaks stay inside their block (white-space: pre-wrap).

import type { PreviewExchange, PreviewHeader, SessionPreview } from "../../core/library/preview-schema.ts";
import { relativeTo, renderPreviewFooter, shortDate } from "../../core/library/preview-text.ts";
import { forkCommandFor } from "../../core/search/fork-candidates.ts";
import { AnnotationForms, StarForm } from "./annotation-forms.tsx";
import { Command, Layout } from "./layout.tsx";
import { sessionHref } from "./links.ts";

export interface SessionPageProps {
  preview: SessionPreview;
  /** The line a search matched (`?at=`), or null. */
  at: string | null;
  /** This page's path and query, for the forms to come back to. */
  back: string;
}

export function SessionPage({ preview, at, back }: SessionPageProps) {
  const { header } = preview;
  const footer = renderPreviewFooter(header, preview.subagents, preview.read, preview.exchanges.length)
    .split("\n")
    .filter((line) => line !== "");
  return (
    <Layout title={header.title === "" ? header.sessionId : header.title} current="sessions">
      <HeaderView header={header} at={at} back={back} />
      <section class="exchanges" aria-label="conversation">
        {preview.exchanges.map((exchange) => (
          <ExchangeView exchange={exchange} header={header} />
        ))}
      </section>
      {footer.length === 0 ? null : (
        <footer class="preview-footer">
          {footer.map((line) => (
            <p>{line}</p>
          ))}
        </footer>
      )}
    </Layout>
  );
}

function HeaderView({ header, at, back }: { header: PreviewHeader; at: string | null; back: string }) {
  const annotation = header.annotation ?? { starred: false, labels: [], note: null };
  const dates = [header.createdAt, header.updatedAt].map((iso) => (iso === null ? "?" : shortDate(iso)));
  return (
    <section class="session-head">
      <h1>{header.title === "" ? "(untitled session)" : header.title}</h1>
      <dl class="facts">
        <dt>session</dt>
        <dd>
          <code>{header.sessionId}</code>
        </dd>
        <dt>project</dt>
        <dd>
          {header.cwd ?? header.project}
          {header.branch === null || header.branch === "" ? null : ` · branch ${header.branch}`}
        </dd>
        <dt>dates</dt>
        <dd>
          {dates[0]} → {dates[1]} · {header.messageCount} messages
        </dd>
        {header.parents.length === 0 ? null : (
          <>
            <dt>fork of</dt>
            <dd>
              <SessionLinks ids={header.parents} />
            </dd>
          </>
        )}
        {header.forks.length === 0 ? null : (
          <>
            <dt>forked as</dt>
            <dd>
              <SessionLinks ids={header.forks} />
            </dd>
          </>
        )}
        {annotation.labels.length === 0 ? null : (
          <>
            <dt>tags</dt>
            <dd class="chips">
              {annotation.labels.map((label) => (
                <span class="chip label">{label}</span>
              ))}
            </dd>
          </>
        )}
        {annotation.note === null ? null : (
          <>
            <dt>note</dt>
            <dd class="note">{annotation.note}</dd>
          </>
        )}
      </dl>
      <h2>Fork it</h2>
      <Command text={forkCommandFor(header.sessionId, header.cwd)} label="copy the fork command" />
      {at === null ? null : (
        <>
          <p class="hint">
            At the match (<a href="#matched">the marked exchange</a>):
          </p>
          <Command
            text={forkCommandFor(header.sessionId, header.cwd, at)}
            label="copy the command that forks at the match"
          />
        </>
      )}
      <div class="result-actions">
        <StarForm sessionId={header.sessionId} starred={annotation.starred} back={back} />
      </div>
      <details class="annotate">
        <summary>Tag or note</summary>
        <AnnotationForms sessionId={header.sessionId} labels={annotation.labels} note={annotation.note} back={back} />
      </details>
    </section>
  );
}

function SessionLinks({ ids }: { ids: readonly string[] }) {
  return (
    <ul class="inline">
      {ids.map((id) => (
        <li>
          <a href={sessionHref(id)}>
            <code>{id.slice(0, 8)}</code>
          </a>
        </li>
      ))}
    </ul>
  );
}

function ExchangeView({ exchange, header }: { exchange: PreviewExchange; header: PreviewHeader }) {
  const tools = exchange.tools.map((tool) => (tool.count > 1 ? `${tool.gist} ×${tool.count}` : tool.gist));
  return (
    <article
      class={exchange.matched ? "exchange matched" : "exchange"}
      id={exchange.matched ? "matched" : `exchange-${exchange.number}`}
      aria-label={`exchange ${exchange.number}${exchange.matched ? ", matched" : ""}`}
    >
      <h3 class="rule">
        {exchange.number}
        {exchange.timestamp === null ? null : ` · ${shortDate(exchange.timestamp)}`}
        {exchange.matched ? <span class="matched-tag"> · ▶ matched</span> : null}
      </h3>
      {exchange.prompt === "" ? null : <blockquote class="prompt">{exchange.prompt}</blockquote>}
      {exchange.replies.map((reply, i) => (
        <>
          {i === 1 && exchange.repliesOmitted > 0 ? (
            <p class="omitted">… {exchange.repliesOmitted} more replies</p>
          ) : null}
          <p class="reply">{reply}</p>
        </>
      ))}
      {tools.length === 0 ? null : (
        <p class="tools">
          <span class="label">tools</span> {tools.join(" · ")}
          {exchange.toolsOmitted > 0 ? ` (+${exchange.toolsOmitted} more)` : null}
        </p>
      )}
      {exchange.files.length === 0 ? null : (
        <ul class="files" aria-label="files written">
          {exchange.files.map((file) => (
            <li>
              <code>{relativeTo(file, header.cwd)}</code>
            </li>
          ))}
        </ul>
      )}
      {exchange.lastUuid === null ? null : (
        <details class="fork-here">
          <summary>Fork after this exchange</summary>
          <Command
            text={forkCommandFor(header.sessionId, header.cwd, exchange.lastUuid)}
            label={`copy the command that forks after exchange ${exchange.number}`}
          />
        </details>
      )}
    </article>
  );
}
