// Appends the session breadcrumb to `<vault>/<YYYY-MM-DD>.md` (src/core/sessions/breadcrumb.ts): a small read and one
// atomic write under the note's lock, redacted, within SessionEnd's budget. The note is a path the person named
// (`breadcrumb.vault`), written by store/files/user-file.ts: the vault folder must exist (ctx never creates a vault,
// nor changes its mode); the note is created when missing (0600), an existing note keeps its mode; a note that is a
// link, a FIFO or anything but a regular file is refused (read without blocking, never written).
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { redactText } from "../../core/redact/redact.ts";
import { type Breadcrumb, breadcrumbLine, dailyNoteName, insertUnderHeading } from "../../core/sessions/breadcrumb.ts";
import { CtxError } from "../../errors.ts";
import { withLock } from "../files/lock.ts";
import { openRegularFile } from "../files/open-regular.ts";
import { userFileTarget, writeUserNamedFile } from "../files/user-file.ts";

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
      const existing = (await userFileTarget(note)).existing;
      const current = existing === null ? "" : await readNote(note);
      await writeUserNamedFile(note, insertUnderHeading(current, target.heading, line));
    },
    { timeoutMs: 500 },
  );
  return note;
}

/** The note's text; a regular file only (opened without blocking, so a FIFO put there cannot hang the hook). */
async function readNote(note: string): Promise<string> {
  const handle = await openRegularFile(note);
  if (handle === null) return "";
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
