// The push's connection, with every statement's parameters made storable on the way out (core/text/postgres-text.ts:
// NUL and lone surrogates become U+FFFD). Wrapping the connection rather than each statement's values means a
// statement added to the push later is covered too: a NUL in one transcript line once made every later push fail
// (issue 31). jsonb values are built with `storableJson` where they are serialised (a `\u0000` escape is plain text).
import { storableValues } from "../core/text/postgres-text.ts";
import type { TeamClient } from "./connect.ts";

/** `client`, whose `query` sends every string (and string in an array) parameter storable; all else as it was. */
export function storableClient(client: TeamClient): TeamClient {
  const query = (statement: unknown, values?: unknown, ...rest: unknown[]): unknown => {
    const cleaned = Array.isArray(values) ? storableValues(values) : values;
    if (
      typeof statement === "object" &&
      statement !== null &&
      Array.isArray((statement as { values?: unknown }).values)
    ) {
      const config = statement as { values: unknown[] };
      return Reflect.apply(client.query, client, [
        { ...config, values: storableValues(config.values) },
        cleaned,
        ...rest,
      ]);
    }
    return Reflect.apply(client.query, client, [statement, cleaned, ...rest]);
  };
  return new Proxy(client, {
    get(target, key) {
      if (key === "query") return query;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
