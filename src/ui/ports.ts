// What the page reads and changes, as functions over plain data: ui/service.ts builds them from the functions the CLI
// and the MCP server use (fork detection, the library's flow, the preview), and tests can hand the app the same.
import type { AnnotationFilter } from "../core/library/annotation.ts";
import type { SessionPreview } from "../core/library/preview-schema.ts";
import type { ForkDetectRequest } from "../search/fork-detect.ts";
import type { ForkDetectReport } from "../search/fork-report-schema.ts";
import type { LibraryListing, LibraryUpdate } from "../search/library-schema.ts";
import type { LibraryRequest } from "../search/session-library.ts";

export interface UiPorts {
  /** `ctx search`'s search (search/fork-detect.ts runForkDetect) as its report; `typing`: the index is searched as it
   *  is (no catching up between keystrokes). */
  search(request: ForkDetectRequest, typing: boolean): Promise<ForkDetectReport>;
  /** The annotated sessions (search/session-library.ts listLibrary). */
  library(filter: AnnotationFilter): Promise<LibraryListing>;
  /** A session's whole preview, by its id or a unique start of it. */
  preview(idText: string, atUuid: string | null): Promise<SessionPreview>;
  /** A library change (search/session-library.ts updateLibrary). */
  annotate(idText: string, request: LibraryRequest): Promise<LibraryUpdate>;
}
