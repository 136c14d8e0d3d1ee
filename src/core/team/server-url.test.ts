import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { describeTeamUrl, hideSecrets, parseTeamUrl, passwordsInUrl } from "./server-url.ts";

describe("the team server URL", () => {
  it("is shown without its password, in the user part or a password= parameter", () => {
    expect(describeTeamUrl("postgresql://alice:s3cr%40t@db.example.com:5432/ctx?sslmode=verify-full")).toBe(
      "postgresql://alice:***@db.example.com:5432/ctx?sslmode=verify-full",
    );
    expect(describeTeamUrl("postgres://alice@db/ctx?password=hunter2&sslmode=require")).toBe(
      "postgres://alice@db/ctx?password=***&sslmode=require",
    );
    expect(describeTeamUrl("postgresql://alice@db/ctx")).toBe("postgresql://alice@db/ctx");
    expect(describeTeamUrl("not a url hunter2")).toBe("(not a URL)");
  });

  it("hides every credential parameter: sslpassword (the client key's passphrase) and the like, in any case", () => {
    const url = "postgresql://alice@db/ctx?sslmode=verify-full&sslkey=/k/alice.key&sslpassword=hunter2&SSLPassword=h2";
    expect(describeTeamUrl(url)).toBe(
      "postgresql://alice@db/ctx?sslmode=verify-full&sslkey=%2Fk%2Falice.key&sslpassword=***&SSLPassword=***",
    );
    expect(passwordsInUrl(url)).toEqual(["hunter2", "h2"]);
    expect(describeTeamUrl("postgresql://a@db/ctx?passfile=/p&client_secret=x1")).toBe(
      "postgresql://a@db/ctx?passfile=%2Fp&client_secret=***",
    );
  });

  it("finds the passwords a message must not show, decoded and as written", () => {
    expect(passwordsInUrl("postgresql://alice:s3cr%40t@db/ctx?password=p2")).toEqual(["s3cr@t", "s3cr%40t", "p2"]);
    expect(hideSecrets("auth failed for s3cr@t (s3cr%40t)", ["s3cr@t"])).toBe("auth failed for *** (***)");
    expect(hideSecrets("nothing here", ["", "x".repeat(0)])).toBe("nothing here");
  });

  it("accepts postgres:// and postgresql:// with a host, and refuses anything else without quoting it", () => {
    expect(parseTeamUrl(" postgresql://a@h/db ").hostname).toBe("h");
    expect(parseTeamUrl("postgres://a@h/db").protocol).toBe("postgres:");
    const notUrl = thrownCtxError(() => parseTeamUrl("alice:hunter2 at db"));
    expect(notUrl.code).toBe("USAGE");
    expect(notUrl.message).not.toContain("hunter2");
    const http = thrownCtxError(() => parseTeamUrl("https://alice:hunter2@db/ctx"));
    expect(http.message).toBe("the team server URL must start with postgresql:// (not https://)");
  });
});
