// Pure helpers of config loading: deep merge of layers, which layer set a path, the env-variable name
// of every leaf setting, and readable zod issues (zod/mini carries no locale messages).
import type * as z from "zod/mini";
import { isRecord } from "../core/json/record.ts";

export interface ConfigLayer {
  /** A file path, or "environment". */
  source: string;
  value: Record<string, unknown>;
}

export interface ConfigLeaf {
  path: string[];
  envName: string;
  defaultValue: unknown;
}

export function mergeLayers(layers: readonly ConfigLayer[]): Record<string, unknown> {
  const merge = (base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) {
      const current = out[key];
      out[key] = isRecord(current) && isRecord(value) ? merge(current, value) : value;
    }
    return out;
  };
  return layers.reduce<Record<string, unknown>>((acc, layer) => merge(acc, layer.value), {});
}

/** The last layer that sets `path` (or its nearest set ancestor): the one an error must name. */
export function sourceOfPath(layers: readonly ConfigLayer[], path: readonly PropertyKey[]): string {
  for (let depth = path.length; depth >= 0; depth--) {
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i];
      if (layer && hasPath(layer.value, path.slice(0, depth))) return layer.source;
    }
  }
  return layers[layers.length - 1]?.source ?? "configuration";
}

function hasPath(value: unknown, path: readonly PropertyKey[]): boolean {
  let cursor: unknown = value;
  for (const key of path) {
    if (!isRecord(cursor) || !(String(key) in cursor)) return false;
    cursor = cursor[String(key)];
  }
  return path.length > 0;
}

export function configLeaves(config: object, prefix: string[] = []): ConfigLeaf[] {
  const leaves: ConfigLeaf[] = [];
  for (const [key, value] of Object.entries(config)) {
    const path = [...prefix, key];
    if (isRecord(value)) leaves.push(...configLeaves(value, path));
    else leaves.push({ path, envName: `CTX_${path.map(toScreamingSnake).join("__")}`, defaultValue: value });
  }
  return leaves;
}

function toScreamingSnake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

export function formatConfigIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
  switch (issue.code) {
    case "unrecognized_keys":
      return `${field}: unknown setting${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    case "invalid_type":
      return `${field}: expected ${issue.expected}`;
    case "too_big":
      return issue.inclusive === false
        ? `${field}: must be less than ${String(issue.maximum)}`
        : `${field}: must be at most ${String(issue.maximum)}`;
    case "too_small":
      return issue.inclusive === false
        ? `${field}: must be greater than ${String(issue.minimum)}`
        : `${field}: must be at least ${String(issue.minimum)}`;
    case "invalid_value":
      return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${field}: invalid (${issue.code})`;
  }
}
