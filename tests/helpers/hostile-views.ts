// Hostile text for the ui's chains, context and index views (src/ui/views/), and the check that none of it reached the
// page as markup (with the SVG elements those views draw; the Sessions pages have their own, hostile-html.ts): every tag in the
// output is one the views write, with only attributes the views write, every link stays on the page's own routes,
// and the payloads' own markers survive only as escaped text.
import { expect } from "vitest";

export const HOSTILE: string[] = [
  "<script>alert('x')</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(document.cookie)",
  '<svg><a xlink:href="javascript:alert(1)"><animate attributeName="href" to="javascript:alert(2)"/></a></svg>',
  "</text></svg><svg onload=alert(3)>",
  '<style>body{background:url("https://evil.example/x")}</style>',
  'x" style="background:url(\'https://evil.example/\')" onmouseover="alert(4)',
  "<a href='javascript:alert(5)'>click</a>",
  "</title><script src=https://evil.example/a.js></script>",
  "\u001b[2J\u001b]0;pwned\u0007 line\nbreak \u2028 and </textarea>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, meant literally
  "{{constructor.constructor('alert(6)')()}} ${alert(7)}",
  "<foreignObject><iframe srcdoc='<script>alert(8)</script>'></iframe></foreignObject>",
];

const TAGS = new Set(
  "section h1 h2 h3 p span div table caption thead tbody tr th td code ul ol li a svg g rect text title path line circle polyline details summary dl dt dd strong em small abbr time".split(
    " ",
  ),
);
const ATTRIBUTE =
  /^(class|id|href|role|viewBox|width|height|x|y|x1|x2|y1|y2|cx|cy|r|rx|d|points|text-anchor|datetime|open|scope|colspan|aria-[a-z]+|data-[a-z-]+)$/;

/** Fails unless `html` is only the views' own markup with the hostile text inert inside it. */
export function expectInert(html: string): void {
  for (const [tag, name, attributes] of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(TAGS.has(name ?? ""), `unexpected tag in ${tag}`).toBe(true);
    for (const [, attribute, value] of (attributes ?? "").matchAll(/\s([^\s=/]+)(?:="([^"]*)")?/g)) {
      expect(ATTRIBUTE.test(attribute ?? ""), `unexpected attribute ${attribute} in ${tag}`).toBe(true);
      if (attribute === "href") expect(value, `link ${value}`).toMatch(/^(\/[^/]|#)/);
      expect(value ?? "", `raw markup in ${tag}`).not.toMatch(/[<>]/);
    }
  }
  expect(html).not.toMatch(/<(script|style|iframe|img|animate|foreignObject|link|meta|object|embed)/i);
  // Nothing that would end an element early: every `<` in the output opens or closes one of the views' tags.
  for (const [closing] of html.matchAll(/<\/([a-zA-Z][\w-]*)>/g)) {
    expect(TAGS.has(closing.slice(2, -1)), `unexpected ${closing}`).toBe(true);
  }
}
