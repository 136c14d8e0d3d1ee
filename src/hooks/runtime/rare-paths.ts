// The door from the lean entry (src/bin/lean.ts, built on its own into dist/lean/) into the program's build, for the
// lean events' rare paths: validating a config seen for the first time, a rolling checkpoint falling due, the guard
// acting on a tier. Built into the program as dist/rare-paths.js; the lean build points each dynamic import of one of
// these modules here (build/lean-entry.ts reads this file's `from` list, and fails the build on any other dynamic
// import), so the lean build holds only the common path. Across the door go plain data and errors read by their
// fields (errors.ts isCtxError works across the two builds' copies of CtxError); never a class instance.
export { validateLayers } from "../../config/load.ts";
export { checkpointContext } from "../../store/context/operations.ts";
export { actOnNotice } from "../../store/guard/guard-actions.ts";
