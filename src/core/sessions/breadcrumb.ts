// The session breadcrumb (pure): one line about a finished session, appended under a heading of an
// Obsidian daily note (`<vault>/<YYYY-MM-DD>.md`, the daily-notes plugin's default name). The line goes at the
// end of that heading's section (before the next heading of the same or a higher level); a missing heading
// is added at the end of the note.

export interface Breadcrumb {
  at: Date;
  project: string;
  sessionId: string;
  /** The session's title, else its first prompt; null when neither is known. */
  title: string | null;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The daily note's name in local time, as Obsidian's daily notes name it by default. */
export function dailyNoteName(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}.md`;
}

export function breadcrumbLine(crumb: Breadcrumb): string {
  const title = crumb.title === null ? "" : crumb.title.replace(/\s+/g, " ").trim();
  const clipped = title.length > 140 ? `${title.slice(0, 139)}…` : title;
  const time = `${pad(crumb.at.getHours())}:${pad(crumb.at.getMinutes())}`;
  return `- ${time} **${crumb.project}**${clipped === "" ? "" : ` — ${clipped}`} (session \`${crumb.sessionId}\`)`;
}

function headingLevel(line: string): number {
  return /^(#{1,6})\s/.exec(line)?.[1]?.length ?? 0;
}

/** The note with `line` added at the end of the `heading` section (the heading is created when missing). */
export function insertUnderHeading(note: string, heading: string, line: string): string {
  const wanted = heading.trim();
  const level = headingLevel(wanted);
  const lines = note.replace(/\r\n?/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const at = lines.findIndex((candidate) => candidate.trim() === wanted);
  if (at < 0) {
    const gap = lines.length === 0 ? [] : lines.at(-1)?.trim() === "" ? [] : [""];
    return `${[...lines, ...gap, wanted, line].join("\n")}\n`;
  }
  let end = at + 1;
  while (end < lines.length) {
    const next = headingLevel(lines[end] ?? "");
    if (next > 0 && (level === 0 || next <= level)) break;
    end += 1;
  }
  let insertAt = end;
  while (insertAt > at + 1 && (lines[insertAt - 1] ?? "").trim() === "") insertAt -= 1;
  lines.splice(insertAt, 0, line);
  return `${lines.join("\n")}\n`;
}
