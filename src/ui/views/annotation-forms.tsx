// The session library's forms (star, tag, untag, note): plain form POSTs to /session/:id/<op> (ui/library-routes.ts,
// which calls search/session-library.ts updateLibrary, the flow `ctx session` runs), each carrying the page to come
// back to. They work without the page's script.
import { sessionHref } from "./links.ts";

interface FormTarget {
  sessionId: string;
  back: string;
}

function actionOf(sessionId: string, op: string): string {
  return `${sessionHref(sessionId)}/${op}`;
}

export function StarForm({ sessionId, starred, back }: FormTarget & { starred: boolean }) {
  return (
    <form class="star-form" method="post" action={actionOf(sessionId, starred ? "unstar" : "star")}>
      <input type="hidden" name="back" value={back} />
      <button type="submit" aria-pressed={starred ? "true" : "false"}>
        {starred ? "★ Starred" : "☆ Star"}
      </button>
    </form>
  );
}

export function AnnotationForms({
  sessionId,
  labels,
  note,
  back,
}: FormTarget & { labels: readonly string[]; note: string | null }) {
  return (
    <div class="annotation-forms">
      <form class="tag-form" method="post" action={actionOf(sessionId, "tag")}>
        <input type="hidden" name="back" value={back} />
        <label>
          Add tags <input name="tags" placeholder="auth db" required />
        </label>
        <button type="submit">Tag</button>
      </form>
      {labels.length === 0 ? null : (
        <div class="untag">
          {labels.map((label) => (
            <form method="post" action={actionOf(sessionId, "untag")}>
              <input type="hidden" name="back" value={back} />
              <input type="hidden" name="tags" value={label} />
              <button type="submit" aria-label={`remove the tag ${label}`}>
                {label} ×
              </button>
            </form>
          ))}
        </div>
      )}
      <form class="note-form" method="post" action={actionOf(sessionId, "note")}>
        <input type="hidden" name="back" value={back} />
        <label>
          Note <input name="note" value={note ?? ""} placeholder="one line: what this session is good for" />
        </label>
        <button type="submit">Save note</button>
      </form>
    </div>
  );
}
