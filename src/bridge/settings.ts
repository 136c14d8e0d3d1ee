// The bridge's settings, checked before anything listens: the `bridge` config section with the command line's
// --host/--port over it. Missing Synology settings are a startup error that names the setting and how to set it.
import { join } from "node:path";
import type { Config } from "../config/schema.ts";
import { CtxError } from "../errors.ts";
import { bridgeDir } from "../store/bridge/session-store.ts";

export type BridgeSettings = Config["bridge"] & { workdir: string; dir: string };

export function resolveBridgeSettings(
  config: Config,
  env: NodeJS.ProcessEnv,
  overrides: { host?: string; port?: number } = {},
): BridgeSettings {
  const bridge = config.bridge;
  for (const [name, value, variable] of [
    ["bridge.synology.token", bridge.synology.token, "CTX_BRIDGE__SYNOLOGY__TOKEN"],
    ["bridge.synology.incomingUrl", bridge.synology.incomingUrl, "CTX_BRIDGE__SYNOLOGY__INCOMING_URL"],
  ] as const) {
    if (value.trim() === "") {
      throw new CtxError("CONFIG_INVALID", `${name} is not set: the bridge cannot run without it`, {
        hint: `set it in ~/.ctx/config.json ({"bridge": {"synology": {…}}}) or as ${variable}; docs/bridge.md shows where Synology Chat shows it`,
      });
    }
  }
  let url: URL;
  try {
    url = new URL(bridge.synology.incomingUrl);
  } catch {
    throw new CtxError("CONFIG_INVALID", "bridge.synology.incomingUrl is not a URL", {
      hint: "paste the whole Webhook URL Synology Chat shows for the incoming webhook (https://…/webapi/entry.cgi?…)",
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new CtxError("CONFIG_INVALID", `bridge.synology.incomingUrl must be http(s), not ${url.protocol}`);
  }
  if (bridge.hardLimitTokens < bridge.softLimitTokens) {
    throw new CtxError(
      "CONFIG_INVALID",
      `bridge.hardLimitTokens (${bridge.hardLimitTokens}) is below bridge.softLimitTokens (${bridge.softLimitTokens})`,
      { hint: "the hard limit must be at least the soft limit (defaults 180,000 and 120,000)" },
    );
  }
  const dir = bridgeDir(env);
  return {
    ...bridge,
    host: overrides.host ?? bridge.host,
    port: overrides.port ?? bridge.port,
    workdir: bridge.claude.workdir.trim() === "" ? join(dir, "workdir") : bridge.claude.workdir,
    dir,
  };
}
