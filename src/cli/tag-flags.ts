// `--tag a --tag b` and `--tag a,b`: the repeatable tag option `ctx search` and `ctx session list` share, kept apart
// from both so the search path loads none of the library's commands.

/** Commander's collector for a repeatable `--tag`: every label named, commas splitting one value into several. */
export function collectTags(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",")];
}
