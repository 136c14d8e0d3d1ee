// CTX_HOOKS_DISABLED=1 makes every ctx hook in a process return at once, doing nothing. ctx sets it for the
// processes it starts itself (`claude -p` for summaries, the archive pass, snapshot recompression), so a hook can
// never recurse into another ctx run; the bridge's Claude runs are real sessions and keep their hooks.

/** The variable the hook process checks (src/hooks/process.ts). */
export const HOOKS_DISABLED_ENV = "CTX_HOOKS_DISABLED";

/** `env` for a child ctx starts itself: no ctx hook runs in it (or in anything it starts). */
export function withHooksDisabled(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [HOOKS_DISABLED_ENV]: "1" };
}
