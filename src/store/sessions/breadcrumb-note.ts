// Appends the session breadcrumb to `<vault>/<YYYY-MM-DD>.md` (src/core/sessions/breadcrumb.ts): a small read and one
// atomic write under the note's lock, redacted, within SessionEnd's budget. The vault folder must exist
// (ctx never creates a vault); the note is created when missing (0600), an existing note keeps its mode.
import { chmod, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { redactText } from "../../core/redact/redact.ts";
import { type Breadcrumb, breadcrumbLine, dailyNoteName, insertUnderHeading } from "../../core/sessions/breadcrumb.ts";
import { CtxError } from "../../errors.ts";
import { writeFileAtomic } from "../files/atomic-write.ts";
import { withLock } from "../files/lock.ts";

export interface BreadcrumbTarget {
  vault: string;
  heading: string;
  home: string;
  allowlist: readonly string[];
}

export async function appendBreadcrumb(target: BreadcrumbTarget, crumb: Breadcrumb): Promise<string> {
  const vault = target.vault.startsWith("~/") ? join(target.home, target.vault.slice(2)) : resolve(target.vault);
  const folder = await stat(vault).catch(() => null);
  if (!folder?.isDirectory()) {
    throw new CtxError("NOT_FOUND", `breadcrumb vault ${vault} is not a folder`, {
      hint: "set breadcrumb.vault to your Obsidian vault (or its daily-notes folder), or breadcrumb.enabled to false",
    });
  }
  const note = join(vault, dailyNoteName(crumb.at));
  const line = redactText(breadcrumbLine(crumb), { allowlist: target.allowlist }).text;
  await withLock(
    note,
    async () => {
      const existing = await stat(note).catch(() => null);
      const current = existing === null ? "" : await readFile(note, "utf8");
      await writeFileAtomic(note, insertUnderHeading(current, target.heading, line));
      if (existing !== null) await chmod(note, existing.mode & 0o7777);
    },
    { timeoutMs: 500 },
  );
  return note;
}
