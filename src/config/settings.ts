// The settings as `ctx config` shows and edits them: every leaf by its dotted key, the layer its effective value
// comes from (default, global file, project file, environment), what values it allows (read from the schema
// itself, so the message can never drift from the check), and a typed value parsed from the command line.
import * as z from "zod/mini";
import { isRecord } from "../core/json/record.ts";
import { CtxError } from "../errors.ts";
import { defaultConfig, withDefaults } from "./defaults.ts";
import { type ConfigLayer, type ConfigLeaf, configLeaves, formatConfigIssue } from "./merge.ts";
import { configSchema } from "./schema.ts";
import type { IgnoredSettings } from "./trust.ts";

export const SETTING_SOURCES = ["default", "global", "project", "environment"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

export const SettingSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  source: z.enum(SETTING_SOURCES),
  /** The file that set it (global or project), or the variable (environment). */
  from: z.nullable(z.string()),
  default: z.unknown(),
  allowed: z.string(),
  envName: z.string(),
});
export type Setting = z.infer<typeof SettingSchema>;

export const SettingListSchema = z.object({ settings: z.array(SettingSchema) });
export type SettingList = z.infer<typeof SettingListSchema>;

/** A config layer as `ctx config` sees it: which of the four it is, plus where it came from. */
export interface NamedLayer extends ConfigLayer {
  kind: Exclude<SettingSource, "default">;
  /** The project file's sensitive settings left out because the user has not trusted it (./trust.ts). */
  ignored?: IgnoredSettings;
}

const leavesCache: { leaves?: ConfigLeaf[] } = {};
function leaves(): ConfigLeaf[] {
  leavesCache.leaves ??= configLeaves(defaultConfig());
  return leavesCache.leaves;
}

export function settingKeys(): string[] {
  return leaves().map((leaf) => leaf.path.join("."));
}

/** The leaf of a dotted key, or a USAGE error that names the nearest keys. */
export function requireSettingLeaf(key: string): ConfigLeaf {
  const leaf = leaves().find((l) => l.path.join(".") === key);
  if (leaf) return leaf;
  const keys = settingKeys();
  const under = keys.filter((k) => k.startsWith(`${key}.`));
  if (under.length > 0) {
    throw new CtxError("USAGE", `${key} is a section, not a setting`, {
      hint: `set one of its keys: ${under.join(", ")}`,
    });
  }
  const section = key.split(".")[0] ?? "";
  const siblings = keys.filter((k) => k.startsWith(`${section}.`));
  throw new CtxError("USAGE", `unknown setting "${key}"`, {
    hint:
      siblings.length > 0
        ? `settings of ${section}: ${siblings.join(", ")}`
        : `sections: ${[...new Set(keys.map((k) => k.split(".")[0]))].join(", ")}; \`ctx config list\` shows every key`,
  });
}

/** The schema of one leaf. */
function leafSchema(path: readonly string[]): z.core.$ZodType {
  let node = configSchema() as unknown as z.core.$ZodType;
  for (const key of path) {
    const shape = (node._zod.def as unknown as { shape?: Record<string, z.core.$ZodType> }).shape;
    const next = shape?.[key];
    if (!next) throw new CtxError("USAGE", `unknown setting "${path.join(".")}"`);
    node = next;
  }
  return node;
}

interface CheckDef {
  check: string;
  value?: number;
  inclusive?: boolean;
  format?: string;
}

/** What a setting accepts, in words: "true or false", "one of none, nomic, ollama", "a whole number from 1 to 256". */
export function describeAllowed(key: string): string {
  const schema = leafSchema(requireSettingLeaf(key).path);
  const def = schema._zod.def as unknown as {
    type: string;
    entries?: Record<string, string>;
    format?: string;
    checks?: Array<{ _zod: { def: CheckDef } }>;
  };
  switch (def.type) {
    case "boolean":
      return "true or false";
    case "string":
      return "text";
    case "enum":
      return `one of ${Object.values(def.entries ?? {}).join(", ")}`;
    case "array":
      return "a list of texts (JSON array, or comma-separated)";
    case "number": {
      const checks = (def.checks ?? []).map((c) => c._zod.def);
      const whole = def.format === "safeint" || checks.some((c) => c.format === "safeint");
      const low = checks.find((c) => c.check === "greater_than");
      const high = checks.find((c) => c.check === "less_than");
      const noun = whole ? "a whole number" : "a number";
      const lowText = low ? (low.inclusive ? `at least ${low.value}` : `greater than ${low.value}`) : "";
      const highText = high ? (high.inclusive ? `at most ${high.value}` : `less than ${high.value}`) : "";
      if (low?.inclusive && high?.inclusive) return `${noun} from ${low.value} to ${high.value}`;
      return [noun, [lowText, highText].filter((t) => t !== "").join(" and ")].filter((t) => t !== "").join(" ");
    }
    default:
      return def.type;
  }
}

/** The typed value of `raw` for `key` (by the default's type), checked against the schema. */
export function parseSettingValue(key: string, raw: string): unknown {
  const leaf = requireSettingLeaf(key);
  const allowed = describeAllowed(key);
  const refuse = (why: string) =>
    new CtxError("USAGE", `${key}: ${why}`, { hint: `${key} takes ${allowed}; nothing was written` });
  let value: unknown;
  if (Array.isArray(leaf.defaultValue)) {
    value = parseList(raw);
  } else if (typeof leaf.defaultValue === "number") {
    if (!/^\s*-?\d+(\.\d+)?\s*$/.test(raw)) throw refuse(`"${raw}" is not a number`);
    value = Number(raw);
  } else if (typeof leaf.defaultValue === "boolean") {
    if (/^(true|yes|on|1)$/i.test(raw)) value = true;
    else if (/^(false|no|off|0)$/i.test(raw)) value = false;
    else throw refuse(`"${raw}" is not true or false`);
  } else {
    value = raw;
  }
  const result = z.safeParse(leafSchema(leaf.path), value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const why = !issue
      ? "invalid"
      : issue.code === "invalid_type" && issue.expected === "int"
        ? "must be a whole number"
        : formatConfigIssue({ ...issue, path: [] }).replace(/^\(root\): /, "");
    throw refuse(`${JSON.stringify(value)} is refused (${why})`);
  }
  return result.data;
}

function parseList(raw: string): string[] {
  const trimmed = raw.trim();
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed;
    } catch {
      // not JSON: read it as a comma-separated list below
    }
  }
  return raw
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** The value at `path` in a layer, or undefined. */
export function valueAt(value: Record<string, unknown>, path: readonly string[]): unknown {
  let cursor: unknown = value;
  for (const key of path) {
    if (!isRecord(cursor)) return undefined;
    cursor = (cursor as Record<string, unknown>)[key];
  }
  return cursor;
}

/** Every setting with its effective value and the layer it comes from (the last layer that sets it wins). */
export function listSettings(effective: Record<string, unknown>, layers: readonly NamedLayer[]): Setting[] {
  return leaves().map((leaf) => {
    const key = leaf.path.join(".");
    let source: SettingSource = "default";
    let from: string | null = null;
    for (const layer of layers) {
      if (valueAt(layer.value, leaf.path) !== undefined) {
        source = layer.kind;
        from = layer.kind === "environment" ? leaf.envName : layer.source;
      }
    }
    return {
      key,
      value: valueAt(effective, leaf.path),
      source,
      from,
      default: leaf.defaultValue,
      allowed: describeAllowed(key),
      envName: leaf.envName,
    };
  });
}

/** A copy of `file` with `path` set to `value` (missing sections made). */
export function withSetting(file: Record<string, unknown>, path: readonly string[], value: unknown) {
  const copy = structuredClone(file);
  let cursor = copy;
  for (const key of path.slice(0, -1)) {
    const next = cursor[key];
    if (!isRecord(next)) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[path[path.length - 1] as string] = value;
  return copy;
}

/** A copy of `file` without `path`; sections left empty are removed too. */
export function withoutSetting(file: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(file);
  const prune = (node: Record<string, unknown>, rest: readonly string[]): void => {
    const [key, ...tail] = rest;
    if (key === undefined || !(key in node)) return;
    if (tail.length === 0) {
      delete node[key];
      return;
    }
    const child = node[key];
    if (!isRecord(child)) return;
    prune(child as Record<string, unknown>, tail);
    if (Object.keys(child).length === 0) delete node[key];
  };
  prune(copy, path);
  return copy;
}

/** Checks a whole config file's content against the schema; a CONFIG_INVALID error names the field. */
export function checkConfigFile(file: Record<string, unknown>, where: string): void {
  const result = configSchema().safeParse(withDefaults(file));
  if (result.success) return;
  const issue = result.error.issues[0];
  throw new CtxError("CONFIG_INVALID", `${where}: ${issue ? formatConfigIssue(issue) : "invalid"}`, {
    hint: "fix that setting first (`ctx config unset <key>` removes one); nothing was written",
  });
}

/** Shows a value as a person types it: strings bare, lists comma-separated, the rest as JSON. */
export function formatSettingValue(value: unknown): string {
  if (typeof value === "string") return value === "" ? '""' : value;
  if (Array.isArray(value)) return value.length === 0 ? "[]" : value.map(String).join(",");
  return JSON.stringify(value);
}
