// `ctx ui` in a real headless Chromium (Debian's package), driven as a person would over the DevTools protocol: the
// printed link opens the Sessions page (the token swapped for the cookie), typing searches as you type, ↓ and Enter
// open the first result, the matched exchange is marked, the copy button puts the fork command on the clipboard, the
// star form stars it. No console message and no CSP refusal on any page; at 1280 and 480 px no page scrolls sideways
// and no two results or header links overlap. Screenshots are kept in test-artifacts/ to look at (ui-*.png).
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, type ChromiumPage, openChromiumPage } from "../helpers/chromium-cdp.ts";
import { layOutClaudeDir } from "../helpers/claude-projects.ts";
import { FORK, FORK_SOURCE } from "../helpers/fork-fixture-index.ts";
import { missingTool } from "../helpers/required-tool.ts";
import { assertBuilt, CTX_BIN, runCtx } from "./ctx-process.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const ARTIFACTS = join(REPO, "test-artifacts");
const chromiumMissing = missingTool("Chromium", CHROMIUM !== undefined, "apt-get install -y chromium");

let base = "";
let ui: ChildProcess | undefined;
let url = "";
let page: ChromiumPage | undefined;

beforeAll(async () => {
  if (chromiumMissing !== null) return;
  assertBuilt();
  base = mkdtempSync(join(tmpdir(), "ctx-ui-chromium-"));
  const env = { HOME: base, CTX_HOME: join(base, "ctx-home"), CLAUDE_CONFIG_DIR: layOutClaudeDir(base) };
  // A source and a fork of it that paid off, as Claude Code 2.1.330 made them: the Chains page draws them.
  const work = join(env.CLAUDE_CONFIG_DIR, "projects", "-home-user-work-project");
  mkdirSync(work, { recursive: true });
  const forks = new URL("../fixtures/forks/", import.meta.url);
  copyFileSync(new URL("source.jsonl", forks), join(work, `${FORK_SOURCE}.jsonl`));
  copyFileSync(new URL("fork.jsonl", forks), join(work, `${FORK}.jsonl`));
  cpSync(new URL("../fixtures/claude-forks/projects/", import.meta.url), join(env.CLAUDE_CONFIG_DIR, "projects"), {
    recursive: true,
  });
  const index = await runCtx(["index"], { cwd: base, env });
  expect(index.code, index.stderr).toBe(0);
  ui = spawn(process.execPath, [CTX_BIN, "ui", "--json"], { cwd: base, env: { ...process.env, ...env } });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    ui?.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve((JSON.parse(out) as { url: string }).url);
    });
    ui?.on("exit", (code) => reject(new Error(`ctx ui exited ${code}`)));
  });
  page = await openChromiumPage();
  const origin = new URL(url).origin;
  await page
    .send("Browser.grantPermissions", {
      origin,
      permissions: ["clipboardReadWrite", "clipboardSanitizedWrite"],
    })
    .catch(() => undefined);
});

afterAll(async () => {
  await page?.close();
  // The server may still be writing under base as it stops (a full run once failed here: ENOTEMPTY), so it is waited
  // for, and the removal retried as the other suites' cleanups do.
  const server = ui;
  if (server !== undefined && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5_000))]);
  }
  if (base !== "") rmSync(base, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

async function load(current: ChromiumPage, address: string): Promise<void> {
  await current.send("Page.navigate", { url: address });
  await current.waitFor("document.readyState === 'complete' && document.querySelector('main')");
}

/** Sideways scrolling and overlapping boxes among the header's links and the results' items. */
const LAYOUT = `(() => {
  const boxes = [...document.querySelectorAll("header.top nav a, li.result, article.exchange")].map((e) => e.getBoundingClientRect());
  let overlaps = 0;
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
  }));
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth, overlaps, boxes: boxes.length };
})()`;

async function checkLayout(current: ChromiumPage, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const width of [1280, 480]) {
    await current.send("Emulation.setDeviceMetricsOverride", {
      width,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const layout = await current.evaluate<{ scrollWidth: number; innerWidth: number; overlaps: number; boxes: number }>(
      LAYOUT,
    );
    expect(layout.boxes, `${name} at ${width}`).toBeGreaterThan(4);
    expect(layout.overlaps, `${name} at ${width}`).toBe(0);
    expect(layout.scrollWidth, `${name} at ${width}`).toBeLessThanOrEqual(layout.innerWidth);
    const shot = await current.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    writeFileSync(join(ARTIFACTS, `ui-${name}-${width}.png`), Buffer.from(shot.data, "base64"));
  }
  await current.send("Emulation.clearDeviceMetricsOverride");
}

describe.skipIf(chromiumMissing !== null)("ctx ui in headless Chromium", () => {
  it("searches as you type, opens a result by keyboard, copies its fork command and stars it", async () => {
    const current = page as ChromiumPage;
    await load(current, url);
    // The token is gone from the address bar once swapped for the cookie.
    expect(await current.evaluate("location.href")).toBe(`${new URL(url).origin}/`);
    await current.evaluate("document.querySelector('input[name=q]').focus()");
    await current.send("Input.insertText", { text: "start phoenix in background" });
    await current.waitFor("document.querySelectorAll('#results li.result').length > 0");
    expect(await current.evaluate("location.search")).toBe("?q=start+phoenix+in+background");
    expect(await current.evaluate("document.querySelector('#results a.open').textContent")).toBe(
      "start phoenix in background",
    );
    await current.send("Emulation.setDeviceMetricsOverride", {
      width: 1280,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await checkLayout(current, "sessions");

    // ↓ from the search box to the first result, Enter opens it.
    await current.send("Input.dispatchKeyEvent", { type: "keyDown", key: "ArrowDown", code: "ArrowDown" });
    expect(await current.evaluate("document.activeElement.className")).toBe("open");
    expect(await current.evaluate("getComputedStyle(document.activeElement).outlineStyle")).not.toBe("none");
    await current.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      key: "Enter",
      code: "Enter",
      windowsVirtualKeyCode: 13,
      text: "\r",
    });
    // Until the document is complete, the h1 can be parsed while the marked exchange further down is not yet.
    await current.waitFor("location.pathname.startsWith('/session/') && document.readyState === 'complete'");
    expect(await current.evaluate("document.querySelector('#matched') !== null")).toBe(true);
    await checkLayout(current, "session");

    // The copy button (shown by the script) puts the fork command on the clipboard.
    const command = await current.evaluate<string>("document.querySelector('button.copy').dataset.copy");
    expect(command).toBe("cd /home/marco/projects/spotter && claude --resume=tool_heavy --fork-session");
    await current.evaluate("document.querySelector('button.copy').click()");
    await current.waitFor("document.querySelector('button.copy').textContent !== 'copy'");
    expect(await current.evaluate("document.querySelector('button.copy').textContent")).toBe("copied");
    expect(await current.evaluate("navigator.clipboard.readText()")).toBe(command);

    // The star form posts and comes back starred.
    await current.evaluate("document.querySelector('form.star-form button').click()");
    await current.waitFor("document.querySelector('form.star-form button')?.getAttribute('aria-pressed') === 'true'");
    await load(current, `${new URL(url).origin}/`);
    expect(await current.evaluate("document.querySelector('#results h2').textContent")).toBe("Your library");

    expect(current.messages).toEqual([]);
  });

  it("opens a chain's node, then shows the Context and Index pages, at 1280 and 480 px without sideways scrolling", async () => {
    const current = page as ChromiumPage;
    const origin = new URL(url).origin;
    await load(current, `${origin}/chains?project=work-project`);
    await current.waitFor("document.querySelectorAll('.chains-graph a').length >= 2");
    await pageLayout(current, "chains");
    // Click the fork's node as a person would: a mouse press and release at its centre.
    const at = await current.evaluate<{ x: number; y: number }>(`(() => {
      const node = [...document.querySelectorAll('.chains-graph a')].find((a) => a.getAttribute('href').includes('${FORK}'));
      node.scrollIntoView();
      const box = node.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    })()`);
    for (const type of ["mousePressed", "mouseReleased"]) {
      await current.send("Input.dispatchMouseEvent", { type, x: at.x, y: at.y, button: "left", clickCount: 1 });
    }
    await current.waitFor(`location.pathname === '/session/${FORK}' && document.readyState === 'complete'`);

    await load(current, `${origin}/context`);
    await pageLayout(current, "context");
    await load(current, `${origin}/index`);
    expect(await current.evaluate("document.querySelector('main').textContent")).toContain("Index and team");
    await pageLayout(current, "index");
    expect(current.messages).toEqual([]);
  });
});

/** A page at 1280 and 480 px: nothing scrolls sideways (a wide graph or table scrolls in its own box); screenshots. */
async function pageLayout(current: ChromiumPage, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const width of [1280, 480]) {
    await current.send("Emulation.setDeviceMetricsOverride", {
      width,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const layout = await current.evaluate<{ scrollWidth: number; innerWidth: number }>(
      "({ scrollWidth: document.documentElement.scrollWidth, innerWidth })",
    );
    expect(layout.scrollWidth, `${name} at ${width}`).toBeLessThanOrEqual(layout.innerWidth);
    const shot = await current.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    writeFileSync(join(ARTIFACTS, `ui-${name}-${width}.png`), Buffer.from(shot.data, "base64"));
  }
  await current.send("Emulation.clearDeviceMetricsOverride");
}
