// What bench/ui-views.bench.ts measures, as one entry for tsup to build (Node runs .ts but not JSX).
export { ChainsView } from "../src/ui/views/chains.tsx";
export { loadChains } from "../src/ui/views/chains-data.ts";
export { ContextView } from "../src/ui/views/context.tsx";
export { loadProjectContext } from "../src/ui/views/context-data.ts";
export { loadIndexPage } from "../src/ui/views/index-data.ts";
export { IndexView } from "../src/ui/views/index-page.tsx";
