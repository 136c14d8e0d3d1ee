/// <reference lib="dom" />
// The `ctx ui` page's one script (built by `pnpm build` into dist/ui/page.js, served from /assets/page.js): progressive
// enhancement only, every page works without it. Search as you type (the same route answers the results fragment,
// rendered and escaped by the server; parsed with DOMParser and moved in as nodes), keyboard moves through the results
// (↓/↑ or j/k, `/` to the search box), and copy buttons (navigator.clipboard). No data is turned into HTML here.

const FRAGMENT_HEADER = "x-ctx-fragment";
const TYPING_PAUSE_MS = 150;

function enhanceSearch(): void {
  const form = document.querySelector<HTMLFormElement>("form#search");
  if (form === null) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const run = async () => {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string" && value.trim() !== "") query.set(name, value);
    }
    const search = query.toString() === "" ? "" : `?${query.toString()}`;
    const ask = ++asked;
    const response = await fetch(`/${search}`, { headers: { [FRAGMENT_HEADER]: "1" }, credentials: "same-origin" });
    if (ask !== asked) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("#results");
    const current = document.querySelector("#results");
    if (fresh === null || current === null) return;
    current.replaceWith(document.adoptNode(fresh));
    history.replaceState(null, "", `/${search}`);
    enhanceCopyButtons();
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run().catch(() => {}), TYPING_PAUSE_MS);
  };
  form.addEventListener("input", later);
  // Enter submits the form as a page does without this script: that search catches the index up first.
  form.addEventListener("submit", () => clearTimeout(timer));
}

function enhanceCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button.copy[data-copy]")) {
    if (button.dataset.ready === "1") continue;
    button.dataset.ready = "1";
    button.hidden = false;
    button.addEventListener("click", () => {
      const text = button.dataset.copy ?? "";
      navigator.clipboard.writeText(text).then(
        () => flash(button, "copied"),
        () => flash(button, "select it"),
      );
    });
  }
}

function flash(button: HTMLButtonElement, text: string): void {
  button.textContent = text;
  setTimeout(() => {
    button.textContent = "copy";
  }, 1500);
}

/** ↓/↑ (or j/k) move between the results' links, `/` goes to the search box. */
function enhanceKeyboard(): void {
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement | null;
    const typing = target !== null && (target.tagName === "INPUT" || target.tagName === "TEXTAREA");
    if (event.key === "/" && !typing) {
      document.querySelector<HTMLInputElement>("form#search input[name=q]")?.focus();
      event.preventDefault();
      return;
    }
    const down = event.key === "ArrowDown" || (!typing && event.key === "j");
    const up = event.key === "ArrowUp" || (!typing && event.key === "k");
    if (!down && !up) return;
    const links = [...document.querySelectorAll<HTMLAnchorElement>("#results a.open")];
    if (links.length === 0) return;
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = at === -1 ? (down ? 0 : -1) : at + (down ? 1 : -1);
    if (next < 0 || next >= links.length) return;
    links[next]?.focus();
    event.preventDefault();
  });
}

enhanceSearch();
enhanceCopyButtons();
enhanceKeyboard();
document.querySelector("#matched")?.scrollIntoView({ block: "start" });
