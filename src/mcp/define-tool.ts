// One way to declare a ctx MCP tool: a tool file is its name, description, schemas, annotations and handler
// (`defineTool`); `registerTool` does the rest alike for every tool: the title in the annotations, the text
// beside structuredContent, and a thrown error turned into an `isError` result the model can act on (ARCHITECTURE.md
// "Conventions": tool failures are results, not protocol faults), with the CtxError code and hint.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type * as z from "zod/mini";
import { describeError, explainSystemError, isCtxError } from "../errors.ts";
import type { ServerDeps } from "./deps.ts";

/** A tool's arguments: the fields (a raw shape), or an object schema when the object itself has rules (strict, refined). */
export type ToolInput = z.core.$ZodShape | z.core.$ZodObject;

/** What the handler receives: the arguments the SDK has already validated against the input schema. */
export type ToolArgs<I extends ToolInput | undefined> = I extends z.core.$ZodType
  ? z.output<I>
  : I extends z.core.$ZodShape
    ? z.output<z.ZodMiniObject<I>>
    : Record<string, never>;

/** What a tool has to say: the text the model reads, and the same facts as data matching the output schema. */
export interface ToolReply<Structured> {
  text: string;
  structured: Structured;
}

export interface ToolSpec<I extends ToolInput | undefined, O extends z.core.$ZodObject> {
  /** `ctx_<verb>[_<noun>]`. */
  name: string;
  title: string;
  /** Written for the model: what the tool does, what it returns, when to use it. */
  description: string;
  /** Absent: the tool takes no arguments (and ignores any it is given). */
  input?: I;
  output: O;
  /** The MCP hints; the title is added from `title`. */
  annotations: Omit<ToolAnnotations, "title">;
  /** How a failure is logged: "error" unless failing is an expected answer (a refusal). */
  failureLogLevel?: "warn" | "error";
  handle: (args: ToolArgs<I>, deps: ServerDeps) => Promise<ToolReply<z.output<O>>>;
}

/** A tool as the registry holds it, whatever its schemas (the SDK checks arguments and results against them). */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: ToolInput | undefined;
  readonly output: z.core.$ZodObject;
  readonly annotations: Omit<ToolAnnotations, "title">;
  readonly failureLogLevel: "warn" | "error";
  readonly handle: (args: never, deps: ServerDeps) => Promise<ToolReply<Record<string, unknown>>>;
}

export function defineTool<
  I extends ToolInput | undefined = undefined,
  O extends z.core.$ZodObject = z.core.$ZodObject,
>(spec: ToolSpec<I, O>): ToolDefinition {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    annotations: spec.annotations,
    failureLogLevel: spec.failureLogLevel ?? "error",
    handle: spec.handle as ToolDefinition["handle"],
  };
}

export function registerTool(server: McpServer, deps: ServerDeps, tool: ToolDefinition): void {
  // Without an input schema the SDK calls back with `extra` alone: the tool's arguments are then empty.
  const callback = async (...params: unknown[]): Promise<CallToolResult> => {
    const args = tool.input === undefined ? {} : params[0];
    try {
      const { text, structured } = await tool.handle(args as never, deps);
      return { content: [{ type: "text", text }], structuredContent: structured };
    } catch (error) {
      deps.logger[tool.failureLogLevel](`${tool.name}: ${String(error)}`);
      return toolErrorResult(tool.name, error);
    }
  };
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      ...(tool.input === undefined ? {} : { inputSchema: tool.input }),
      outputSchema: tool.output,
      annotations: { title: tool.title, ...tool.annotations },
    },
    callback,
  );
}

export function toolErrorResult(toolName: string, thrown: unknown): CallToolResult {
  const error = explainSystemError(thrown) ?? thrown;
  const hint = isCtxError(error) && error.hint !== undefined ? `\nhint: ${error.hint}` : "";
  const code = isCtxError(error) ? ` [${error.code}]` : "";
  return {
    isError: true,
    content: [{ type: "text", text: `${toolName} failed${code}: ${describeError(error)}${hint}` }],
  };
}
