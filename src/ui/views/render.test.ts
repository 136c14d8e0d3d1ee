// The page's renderers given hostile text in every field of their models (the preview model and fork detection's
// report, shaped as their schemas say): every payload comes out as escaped text, no element, attribute, script or
// link of its own; session ids in links are percent-encoded paths. The checker itself is shown to catch markup.
import { describe, expect, it } from "vitest";
import { foreignMarkup, HOSTILE, HOSTILE_TEXT } from "../../../tests/helpers/hostile-html.ts";
import type { SessionPreview } from "../../core/library/preview-schema.ts";
import type { ForkCandidate } from "../../core/search/fork-candidate-schema.ts";
import { renderPage } from "./layout.tsx";
import { SessionPage } from "./session.tsx";
import { Results, SessionsPage } from "./sessions.tsx";

const BAD_ID = `x"><script>alert('id')</script>`;

function hostilePreview(): SessionPreview {
  return {
    header: {
      sessionId: BAD_ID,
      title: HOSTILE_TEXT,
      project: HOSTILE.css,
      cwd: `/home/${HOSTILE.svg}`,
      branch: HOSTILE.breakOut,
      createdAt: "2026-11-01T10:00:00.000Z",
      updatedAt: null,
      messageCount: 3,
      parents: [BAD_ID],
      forks: [`javascript:alert(1)`],
      transcriptPath: null,
      annotation: { starred: true, labels: [HOSTILE.quoteOut], note: HOSTILE.link },
    },
    exchanges: [
      {
        number: 1,
        uuid: "u1",
        lastUuid: `'; rm -rf ~; echo '`,
        timestamp: null,
        prompt: HOSTILE_TEXT,
        replies: [HOSTILE.script, HOSTILE.img, HOSTILE.css],
        repliesOmitted: 2,
        tools: [{ gist: `Bash: ${HOSTILE.svg}`, count: 2 }],
        toolsOmitted: 0,
        files: [`/home/${HOSTILE.svg}/${HOSTILE.img}.ts`],
        matched: true,
      },
    ],
    subagents: { transcripts: 1, files: [HOSTILE.script], filesOmitted: 0 },
    read: { transcript: "missing", linesSkipped: 1, atFound: false, fromIndex: true },
  };
}

function hostileCandidate(): ForkCandidate {
  return {
    rank: 1,
    sessionId: BAD_ID,
    score: 0.8,
    scorePercent: 80,
    weak: false,
    rankScore: 0.8,
    components: {
      relevance: 0.8,
      bestSimilarity: 0.8,
      passageSimilarity: 0.8,
      averageSimilarity: 0.8,
      chunkRatio: 1,
      promptSimilarity: null,
      feedbackSimilarity: null,
      namedDate: null,
      recency: 1,
      chainQuality: 0.5,
      boost: 1,
      multiplier: 1,
    },
    project: HOSTILE.css,
    cwd: HOSTILE.svg,
    updatedAt: "2026-11-01T10:00:00.000Z",
    relativeDate: HOSTILE.img,
    topic: HOSTILE_TEXT,
    preview: HOSTILE_TEXT,
    messageCount: 2,
    matchedChunks: 1,
    markers: [{ type: "WORKING_SOLUTION", chunkIndex: 0 }],
    transcriptPath: "/t.jsonl",
    transcriptExists: true,
    expiresInDays: null,
    warning: HOSTILE.link,
    forkCommand: `cd '${HOSTILE.breakOut}' && claude --resume x --fork-session`,
    forkAtCommand: null,
    inSessionCommand: "/resume",
    parents: [],
    forks: [],
    chainQuality: 0.5,
    team: { author: HOSTILE.script, project: "p", branch: null, forkable: true, local: true },
    matchUuid: `"><img src=x onerror=alert(1)>`,
    starred: true,
    labels: [HOSTILE.script],
    note: HOSTILE.img,
    alsoIn: [],
  };
}

describe("the renderers with hostile text", () => {
  it("the checker finds markup that did not come from the page", () => {
    expect(foreignMarkup(HOSTILE.img)).toEqual([HOSTILE.img, HOSTILE.img]);
    expect(foreignMarkup(HOSTILE.script)).toHaveLength(1);
    expect(foreignMarkup(HOSTILE.svg)).toHaveLength(3);
    expect(foreignMarkup('<a href="javascript:alert(1)">x</a>')).toHaveLength(1);
    expect(foreignMarkup('<p onclick="x">x</p>')).toHaveLength(1);
    expect(foreignMarkup('<p style="color:red">x</p><p title=x>y</p>')).toHaveLength(2);
    expect(foreignMarkup('<p title="a onload=b">x</p>')).toEqual([]);
  });

  it("a session's page shows every field as text", () => {
    const html = renderPage(SessionPage({ preview: hostilePreview(), at: "u'1", back: "/session/x" }));
    expect(foreignMarkup(html)).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;");
    expect(html).toContain("&lt;/style&gt;&lt;style&gt;body{display:none");
    expect(html).toContain('href="/session/x%22%3E%3Cscript%3Ealert(&#39;id&#39;)%3C%2Fscript%3E"');
    expect(html).toContain(`href="/session/javascript%3Aalert(1)"`);
    // The fork commands are the shell-quoted ones: the exchange's last uuid is one quoted word.
    expect(html).toContain("--resume-session-at &#39;&#39;\\&#39;&#39;; rm -rf ~; echo &#39;\\&#39;&#39;&#39;</code>");
    expect(html).toContain('class="exchange matched" id="matched"');
    expect(html).toContain("the transcript is gone");
  });

  it("the Sessions page and the typing fragment show every field as text", () => {
    const report = {
      query: HOSTILE_TEXT,
      message: "",
      results: [hostileCandidate()],
      thresholdPercent: 30,
      strongMatches: 1,
      weakMatches: 0,
      recent: [],
      indexedSessions: 1,
      scope: "local" as const,
      notices: [HOSTILE.svg],
    };
    const form = {
      q: HOSTILE_TEXT,
      project: HOSTILE.breakOut,
      since: "",
      until: "",
      tag: HOSTILE.quoteOut,
      marker: "",
      scope: "",
      starred: true,
    };
    const page = renderPage(
      SessionsPage({ form, outcome: { kind: "results", report }, back: `/?q=${HOSTILE.breakOut}` }),
    );
    const fragment = String(
      Results({ outcome: { kind: "error", message: HOSTILE.script, hint: HOSTILE.img }, back: "/" }),
    );
    for (const html of [page, fragment]) expect(foreignMarkup(html)).toEqual([]);
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(&#39;attr&#39;)&lt;/script&gt;&lt;x y=&quot;"');
    expect(page).toContain("<title>&lt;script&gt;");
    expect(page).toContain('<span class="chip marker">working solution</span>');
    expect(fragment).toContain("&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;");
  });
});
