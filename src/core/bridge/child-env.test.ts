import { describe, expect, it } from "vitest";
import { bridgeChildEnv, bridgeSecretValues } from "./child-env.ts";

const secrets = {
  token: "outgoing-secret-token",
  incomingUrl: "https://nas.example:5001/webapi/entry.cgi?api=SYNO.Chat.External&token=%22incoming-token-123%22",
};

describe("bridgeChildEnv (secrets stay with the bridge)", () => {
  it("secrets stay with the bridge: drops every CTX_BRIDGE__ variable, whatever it holds", () => {
    const env = bridgeChildEnv(
      {
        PATH: "/usr/bin",
        CTX_BRIDGE__SYNOLOGY__TOKEN: secrets.token,
        CTX_BRIDGE__SYNOLOGY__INCOMING_URL: secrets.incomingUrl,
        CTX_BRIDGE__PORT: "8080",
        ctx_bridge__host: "0.0.0.0",
        CTX_HOME: "/home/op/.ctx",
      },
      secrets,
    );
    expect(env).toEqual({ PATH: "/usr/bin", CTX_HOME: "/home/op/.ctx" });
  });

  it("secrets stay with the bridge: drops any variable holding the token or the incoming URL", () => {
    const env = bridgeChildEnv(
      {
        HOME: "/home/op",
        SYNO_TOKEN: secrets.token,
        PADDED: ` ${secrets.token}\n`,
        HOOK_URL: secrets.incomingUrl,
        AUTH_HEADER: `Bearer ${secrets.token}`,
        INNER: '"incoming-token-123"',
        UNRELATED: "outgoing",
      },
      secrets,
    );
    expect(env).toEqual({ HOME: "/home/op", UNRELATED: "outgoing" });
  });

  it("looks for a short secret only as a whole value, so it never strips PATH", () => {
    const env = bridgeChildEnv({ PATH: "/usr/local/bin:/usr/bin", T: "bin" }, { token: "bin", incomingUrl: "" });
    expect(env).toEqual({ PATH: "/usr/local/bin:/usr/bin" });
  });

  it("keeps the operator's environment when nothing is secret, and never changes the input", () => {
    const input = { PATH: "/usr/bin", LANG: "C.UTF-8", ANTHROPIC_API_KEY: "sk-ant-x" };
    expect(bridgeChildEnv(input, { token: "", incomingUrl: "" })).toEqual(input);
    expect(input).toEqual({ PATH: "/usr/bin", LANG: "C.UTF-8", ANTHROPIC_API_KEY: "sk-ant-x" });
  });

  it("counts the token inside the incoming URL as a secret", () => {
    expect(bridgeSecretValues(secrets)).toEqual([secrets.token, secrets.incomingUrl, '"incoming-token-123"']);
  });
});
