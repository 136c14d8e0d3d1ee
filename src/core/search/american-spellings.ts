// The `american-english` package's British -> American table (./word-forms.ts reads it), made ready to read: values
// trimmed (16 carry a trailing space) and a pair the table lists both ways (`flyer` / `flier`) left out. Made ready
// once per process here; the built program holds the result instead, computed when it is built (build/spelling-table.ts
// replaces this module), so a process only parses it: evaluating the package cost a new process 8-9 ms, and making its
// table ready 4-10 ms more, on the first tokenization of every process that tokenizes.
import americanEnglish from "american-english";

/** The table made ready: `written -> American` for every British spelling with one American spelling. */
export function readySpellings(british: Readonly<Record<string, string>>): Record<string, string> {
  const ready: Record<string, string> = {};
  for (const [written, spelled] of Object.entries(british)) {
    const american = spelled.trim();
    if (american !== "" && !Object.hasOwn(british, american)) ready[written] = american;
  }
  return ready;
}

let ready: Readonly<Record<string, string>> | undefined;

/** British spelling -> American spelling, lower case, made ready at the first call. */
export function americanSpellings(): Readonly<Record<string, string>> {
  if (ready === undefined) ready = readySpellings(americanEnglish.us_spelling);
  return ready;
}
