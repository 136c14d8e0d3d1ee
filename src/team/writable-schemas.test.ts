import { describe, expect, it } from "vitest";
import { writableSchemaWarnings } from "./writable-schemas.ts";

describe("writableSchemaWarnings", () => {
  it("names every creator and the REVOKE that fixes it, each name quoted (a reserved word such as user too)", () => {
    const [line] = writableSchemaWarnings([{ schema: "public", creators: ["PUBLIC", "user"] }]);
    expect(line).toContain("every role (PUBLIC), user may create objects in schema public");
    expect(line).toContain('`REVOKE CREATE ON SCHEMA "public" FROM PUBLIC, "user"`');
  });

  it("keeps a name the server gives on one line: a newline or an escape in it cannot start a line of its own", () => {
    const lines = writableSchemaWarnings([{ schema: 'evil\nwarning: all clear "x"', creators: ["ro\u001b[2Jle"] }]);
    expect(lines).toHaveLength(1);
    for (const control of ["\n", "\r", "\u001b"]) expect(lines[0]).not.toContain(control);
    expect(lines[0]).toContain('"evil\\nwarning: all clear ""x"""');
  });
});
