// The fields by which Claude Code names a session and its transcript, in a hook's stdin (hooks/runtime/schemas.ts)
// and in the arguments an `mcp_tool` hook passes to ctx_guard_tick (mcp/tools/guard-tick.ts): one schema for each,
// so both doors refuse the same values.
import * as z from "zod/mini";
import { CONTROL_CHARACTER_ISSUE, WITHOUT_CONTROL_CHARACTERS } from "../text/control-characters.ts";

/** An id or path with a control character names no real file; once recorded it would break every later save. */
export const NO_CONTROL_CHARACTERS = z.regex(WITHOUT_CONTROL_CHARACTERS, { error: CONTROL_CHARACTER_ISSUE });

/** `session_id`: not empty, no control character. */
export const sessionIdField = () => z.string().check(z.minLength(1), NO_CONTROL_CHARACTERS);

/** `transcript_path`: no control character (empty while Claude Code has not created the transcript yet). */
export const transcriptPathField = () => z.string().check(NO_CONTROL_CHARACTERS);
