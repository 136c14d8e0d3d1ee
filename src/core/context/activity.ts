// What a session did through its tools: files read and written, the task list (TodoWrite, or the Task*
// tools of Claude Code 2.1.16+), the plan handed to ExitPlanMode, call counts and recent failures.
// A call takes effect when its result arrives without an error (a rejected Write wrote nothing), or at the
// end if no result was written yet (a PostToolUse hook runs before Claude Code writes the result line).

import { collapseWhitespace, truncateText } from "../transcript/text.ts";
import {
  CONTEXT_STATE_LIMITS,
  type FileAccess,
  type Plan,
  type TodoItem,
  type TodoList,
  type ToolFailure,
} from "./schema.ts";

export interface PendingToolUse {
  name: string;
  input: unknown;
  timestamp: string | null;
  mainChain: boolean;
}

export interface ToolOutcome {
  isError: boolean;
  text: string;
  toolUseResult: unknown;
  timestamp: string | null;
}

export interface Activity {
  projectRoot: string;
  /** Insertion order is recency: an access moves its file to the end. */
  files: Map<string, FileAccess>;
  todos: TodoList | null;
  plan: Plan | null;
  calls: Map<string, number>;
  totalCalls: number;
  failures: ToolFailure[];
}

const FILE_ACTIONS: Record<string, "read" | "write" | "edit"> = {
  Read: "read",
  NotebookRead: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
};
const OTHER_TOOLS = "(other)";

export function createActivity(projectRoot: string): Activity {
  return { projectRoot, files: new Map(), todos: null, plan: null, calls: new Map(), totalCalls: 0, failures: [] };
}

export function recordToolCall(activity: Activity, name: string): void {
  const key = activity.calls.has(name) || activity.calls.size < CONTEXT_STATE_LIMITS.toolNames ? name : OTHER_TOOLS;
  activity.calls.set(key, (activity.calls.get(key) ?? 0) + 1);
  activity.totalCalls += 1;
}

export function recordToolFailure(activity: Activity, tool: string, text: string, timestamp: string | null): void {
  // Some results hold their output JSON-escaped twice: show `\n` as the line break it was.
  const message = collapseWhitespace(text.replace(/<\/?tool_use_error>/g, " ").replace(/\\[nrt]/g, " "));
  activity.failures.push({
    tool,
    message: truncateText(message || "(no message)", CONTEXT_STATE_LIMITS.toolFailureChars),
    timestamp,
  });
  if (activity.failures.length > CONTEXT_STATE_LIMITS.toolFailures) activity.failures.shift();
}

/** Applies a call's effect; `outcome` null means no result was seen. Failed calls only change the plan. */
export function applyToolUse(activity: Activity, use: PendingToolUse, outcome: ToolOutcome | null): void {
  const input = asRecord(use.input);
  const at = outcome?.timestamp ?? use.timestamp;
  if (use.name === "ExitPlanMode" && use.mainChain) {
    applyPlan(activity, input, outcome, use.timestamp);
    return;
  }
  if (outcome?.isError === true) return;
  const action = FILE_ACTIONS[use.name];
  if (action !== undefined) {
    const path = stringField(input, "file_path") ?? stringField(input, "notebook_path");
    if (path !== null) touchFile(activity, path, action, at);
    return;
  }
  if (!use.mainChain) return;
  if (use.name === "TodoWrite") applyTodoWrite(activity, input, at);
  else if (use.name === "TaskCreate") applyTaskCreate(activity, input, outcome, at);
  else if (use.name === "TaskUpdate") applyTaskUpdate(activity, input, at);
}

function touchFile(activity: Activity, path: string, action: "read" | "write" | "edit", at: string | null): void {
  const previous = activity.files.get(path);
  const isRead = action === "read";
  const next: FileAccess = {
    path,
    inProject: isInside(path, activity.projectRoot),
    reads: (previous?.reads ?? 0) + (isRead ? 1 : 0),
    writes: (previous?.writes ?? 0) + (isRead ? 0 : 1),
    lastAccess: at ?? previous?.lastAccess ?? null,
    lastAction: action,
    contentHash: null,
  };
  activity.files.delete(path);
  activity.files.set(path, next);
  if (activity.files.size > CONTEXT_STATE_LIMITS.files) {
    const oldest = activity.files.keys().next();
    if (oldest.done !== true) activity.files.delete(oldest.value);
  }
}

function isInside(path: string, root: string): boolean {
  if (root === "") return false;
  const normalized = path.replaceAll("\\", "/");
  const base = root.replaceAll("\\", "/").replace(/\/+$/, "");
  return normalized === base || normalized.startsWith(`${base}/`);
}

function applyPlan(activity: Activity, input: Record<string, unknown>, outcome: ToolOutcome | null, at: string | null) {
  const result = asRecord(outcome?.toolUseResult);
  const text = stringField(input, "plan") ?? stringField(result, "plan");
  activity.plan = {
    text: text === null ? null : truncateText(text, CONTEXT_STATE_LIMITS.planChars),
    filePath: stringField(result, "filePath"),
    proposedAt: at,
    approved: outcome === null ? null : !outcome.isError,
  };
}

function applyTodoWrite(activity: Activity, input: Record<string, unknown>, at: string | null): void {
  const todos = input.todos;
  if (!Array.isArray(todos)) return;
  const items: TodoItem[] = [];
  for (const raw of todos) {
    const todo = asRecord(raw);
    const content = stringField(todo, "content");
    if (content === null) continue;
    items.push(todoItem(null, content, stringField(todo, "status") ?? "pending", stringField(todo, "activeForm")));
  }
  activity.todos = { source: "TodoWrite", updatedAt: at, items: items.slice(-CONTEXT_STATE_LIMITS.todos) };
}

function taskList(activity: Activity, at: string | null): TodoList {
  if (activity.todos?.source !== "Task") activity.todos = { source: "Task", updatedAt: at, items: [] };
  activity.todos.updatedAt = at;
  return activity.todos;
}

function applyTaskCreate(
  activity: Activity,
  input: Record<string, unknown>,
  outcome: ToolOutcome | null,
  at: string | null,
): void {
  const content = stringField(input, "subject") ?? stringField(input, "description");
  if (content === null) return;
  const list = taskList(activity, at);
  const id = createdTaskId(outcome) ?? String(nextTaskNumber(list));
  list.items = list.items.filter((item) => item.id !== id);
  list.items.push(todoItem(id, content, "pending", stringField(input, "activeForm")));
  if (list.items.length > CONTEXT_STATE_LIMITS.todos) list.items.shift();
}

function applyTaskUpdate(activity: Activity, input: Record<string, unknown>, at: string | null): void {
  const rawId = input.taskId;
  if (typeof rawId !== "string" && typeof rawId !== "number") return;
  const id = String(rawId);
  const list = taskList(activity, at);
  const status = stringField(input, "status");
  const index = list.items.findIndex((item) => item.id === id);
  if (status === "deleted") {
    if (index >= 0) list.items.splice(index, 1);
    return;
  }
  // A task created before the entries read (earlier than a compaction boundary) is known only by its id.
  const current = list.items[index] ?? todoItem(id, `Task #${id}`, "pending", null);
  const updated = todoItem(
    id,
    stringField(input, "subject") ?? current.content,
    status ?? current.status,
    stringField(input, "activeForm") ?? current.activeForm,
  );
  if (index >= 0) list.items[index] = updated;
  else {
    list.items.push(updated);
    if (list.items.length > CONTEXT_STATE_LIMITS.todos) list.items.shift();
  }
}

/** The id Claude Code gave a new task: `toolUseResult.task.id`, else "Task #N created…" in the result text. */
function createdTaskId(outcome: ToolOutcome | null): string | null {
  if (outcome === null) return null;
  const task = asRecord(asRecord(outcome.toolUseResult).task);
  const id = task.id;
  if (typeof id === "string" || typeof id === "number") return String(id);
  return /Task #(\w+)/.exec(outcome.text)?.[1] ?? null;
}

function nextTaskNumber(list: TodoList): number {
  let highest = 0;
  for (const item of list.items) {
    const number = Number(item.id);
    if (Number.isInteger(number) && number > highest) highest = number;
  }
  return highest + 1;
}

function todoItem(id: string | null, content: string, status: string, activeForm: string | null): TodoItem {
  const limit = CONTEXT_STATE_LIMITS.todoChars;
  return {
    id,
    content: truncateText(content, limit),
    status,
    activeForm: activeForm === null ? null : truncateText(activeForm, limit),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stringField(record: Record<string, unknown>, field: string): string | null {
  const value = record[field];
  return typeof value === "string" && value.trim() !== "" ? value : null;
}
