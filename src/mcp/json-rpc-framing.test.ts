import { describe, expect, it } from "vitest";
import { INVALID_REQUEST, PARSE_ERROR, parseLine, takeLines } from "./json-rpc-framing.ts";

describe("JSON-RPC line framing", () => {
  it("keeps an unfinished line for the next chunk and strips CR", () => {
    expect(takeLines('{"a":1}\r\n{"b"')).toEqual({ lines: ['{"a":1}'], rest: '{"b"' });
    expect(takeLines("")).toEqual({ lines: [], rest: "" });
  });

  it("passes a valid request through", () => {
    const framed = parseLine(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }));
    expect(framed).toEqual({ message: { jsonrpc: "2.0", id: 7, method: "ping" } });
  });

  it("answers a line that is not JSON with a parse error and a null id", () => {
    expect(parseLine("not json at all")).toMatchObject({
      reply: { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR } },
    });
  });

  it("answers JSON that is not JSON-RPC with invalid request, echoing a usable id", () => {
    expect(parseLine(JSON.stringify({ id: 5, hello: "world" }))).toMatchObject({
      reply: { id: 5, error: { code: INVALID_REQUEST } },
    });
    expect(parseLine("[1,2,3]")).toMatchObject({ reply: { id: null, error: { code: INVALID_REQUEST } } });
  });

  it("ignores blank lines", () => {
    expect(parseLine("   ")).toBeNull();
  });
});
