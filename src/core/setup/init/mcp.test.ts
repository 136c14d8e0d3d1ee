import { describe, expect, it } from "vitest";
import { mergeEnabledServer, mergeMcpServer, removeEnabledServer, removeMcpServer } from "./mcp.ts";

const cmd = { command: "ctx", prefixArgs: [] };
const other = { type: "http", url: "https://example.invalid/mcp" };

describe("mergeMcpServer", () => {
  it("adds ctx and keeps every other server and field", () => {
    const { value } = mergeMcpServer({ mcpServers: { other }, extra: true }, cmd, ".mcp.json");
    expect(value).toEqual({
      mcpServers: { other, ctx: { type: "stdio", command: "ctx", args: ["serve"] } },
      extra: true,
    });
  });

  it("updates an older ctx entry in place and keeps the env the user added", () => {
    const old = { mcpServers: { ctx: { command: "node", args: ["/old/dist/ctx.js", "serve"], env: { A: "1" } } } };
    const { value, details } = mergeMcpServer(old, cmd, ".mcp.json");
    expect(value).toEqual({ mcpServers: { ctx: { command: "ctx", args: ["serve"], env: { A: "1" }, type: "stdio" } } });
    expect(details).toEqual(["~ mcpServers.ctx: now ctx serve"]);
  });

  it("reports no change when ctx is already there", () => {
    const once = mergeMcpServer({}, cmd, ".mcp.json").value;
    expect(mergeMcpServer(once, cmd, ".mcp.json").details).toEqual([]);
  });

  it("refuses to take over a server named ctx that is another tool", () => {
    const taken = { mcpServers: { ctx: { command: "python", args: ["-m", "otherctx"] } } };
    expect(() => mergeMcpServer(taken, cmd, ".mcp.json")).toThrow(
      /mcpServers.ctx is another server \(command python\)/,
    );
  });
});

describe("removeMcpServer", () => {
  it("takes out ctx and an mcpServers object ctx emptied", () => {
    expect(removeMcpServer({ mcpServers: { ctx: { command: "ctx", args: ["serve"] } } }).value).toEqual({});
    expect(removeMcpServer({ mcpServers: { other, ctx: { command: "ctx", args: ["serve"] } } }).value).toEqual({
      mcpServers: { other },
    });
  });

  it("leaves another tool's ctx server alone", () => {
    const taken = { mcpServers: { ctx: { command: "python" } } };
    expect(removeMcpServer(taken)).toEqual({ value: taken, details: [] });
  });
});

describe("enabledMcpjsonServers", () => {
  it("adds ctx once, after the user's servers", () => {
    const { value } = mergeEnabledServer({ enabledMcpjsonServers: ["db"] }, "l.json");
    expect(value.enabledMcpjsonServers).toEqual(["db", "ctx"]);
    expect(mergeEnabledServer(value, "l.json").details).toEqual([]);
  });

  it("warns when ctx is disabled there too", () => {
    const { details } = mergeEnabledServer({ disabledMcpjsonServers: ["ctx"] }, "l.json");
    expect(details.some((detail) => detail.includes("disabledMcpjsonServers"))).toBe(true);
  });

  it("removes ctx, and the key only when ctx emptied it", () => {
    expect(removeEnabledServer({ enabledMcpjsonServers: ["ctx"], x: 1 }).value).toEqual({ x: 1 });
    expect(removeEnabledServer({ enabledMcpjsonServers: ["db", "ctx"] }).value).toEqual({
      enabledMcpjsonServers: ["db"],
    });
    expect(removeEnabledServer({ enabledMcpjsonServers: [] }).details).toEqual([]);
  });

  it("refuses an enabledMcpjsonServers that is not a list", () => {
    expect(() => mergeEnabledServer({ enabledMcpjsonServers: "ctx" }, "l.json")).toThrow(/not an array/);
  });
});
