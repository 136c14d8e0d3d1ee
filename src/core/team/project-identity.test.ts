import { describe, expect, it } from "vitest";
import { isPlainRepoPath, normaliseGitRemote, projectIdentity, projectName } from "./project-identity.ts";

describe("a project's identity across machines", () => {
  it("is the same for one repository cloned over ssh, scp-style ssh and https with credentials", () => {
    const forms = [
      "git@github.com:acme/app.git",
      "ssh://git@GitHub.com:22/acme/app.git",
      "https://user:ghp_token@github.com/acme/app",
      "https://github.com/acme/app.git/",
      "git://github.com/acme/app",
    ];
    expect(new Set(forms.map(normaliseGitRemote))).toEqual(new Set(["github.com/acme/app"]));
  });

  it("keeps nested groups and refuses what is not a remote", () => {
    expect(normaliseGitRemote("git@gitlab.example.com:group/sub/app.git")).toBe("gitlab.example.com/group/sub/app");
    expect(normaliseGitRemote("")).toBeNull();
    expect(normaliseGitRemote("/home/me/app")).toBeNull();
    expect(normaliseGitRemote("file:///home/me/app")).toBeNull();
  });

  it("adds the path inside the repository for a monorepo, '' at its root", () => {
    expect(projectIdentity("git@github.com:acme/mono.git", "services\\api/")).toEqual({
      remoteUrl: "github.com/acme/mono",
      repoPath: "services/api",
    });
    expect(projectIdentity("git@github.com:acme/mono.git", ".")).toEqual({
      remoteUrl: "github.com/acme/mono",
      repoPath: "",
    });
    expect(projectIdentity("git@github.com:acme/mono.git", "../elsewhere")).toBeNull();
  });

  it("takes from the server only a repo_path of plain folder names inside the repository", () => {
    for (const plain of ["", "packages/web", "a", "a.b/..c/.d"]) expect(isPlainRepoPath(plain), plain).toBe(true);
    const hostile = [
      "..",
      "../../../tmp/x",
      "packages/../../x",
      "/tmp/x",
      ".",
      "./packages",
      "packages/",
      "a//b",
      "a\\..\\..\\b",
      "a\nb",
      "a\u0000b",
      "a\u001b[31mb",
      "a\u007fb",
    ];
    for (const path of hostile) expect(isPlainRepoPath(path), JSON.stringify(path)).toBe(false);
    // And this machine never shares what a teammate's ctx would refuse.
    expect(projectIdentity("git@github.com:acme/app.git", "pack\u001bages/web")).toBeNull();
    expect(normaliseGitRemote("git@github.com:acme/a\u001b]0;x\u0007pp.git")).toBeNull();
  });
});

describe("a project's one name", () => {
  it("is the remote's identity, plus the folder inside the repository", () => {
    expect(projectName({ remoteUrl: "github.com/acme/app", repoPath: "" })).toBe("github.com/acme/app");
    expect(projectName({ remoteUrl: "github.com/acme/app", repoPath: "packages/web" })).toBe(
      "github.com/acme/app/packages/web",
    );
  });
});
