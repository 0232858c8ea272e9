import { describe, expect, it } from "vitest";
import { gitRemoteHasCredentials, hasUserinfo, redactUserinfo } from "./userinfo.js";

describe("hasUserinfo", () => {
  it.each([
    "https://u:pw@example.com/x",
    "https://token@example.com",
    "http://@example.com",
    "HTTPS://U:PW@EXAMPLE.COM",
    "https:u:pw@example.com",
    "https:\\\\u:pw@example.com",
    "https://u:p w@exa mple.com",
    " https://u:p\tw@example.com",
    "https://example.com:443@evil.example/",
    "//u:pw@evil.example/",
    "/\t/u:pw@evil.example",
    "ssh://u:pw@example.com/r",
  ])("finds credentials in %j", (raw) => {
    expect(hasUserinfo(raw)).toBe(true);
  });

  it.each([
    "https://example.com/@acme",
    "https://example.com?next=a@b",
    "https://example.com#a@b",
    "https://example.com\\@evil",
    "/about@home",
    "/docs/a@b",
    "mailto:team@example.com",
    "javascript:alert('a@b')",
    "u:pw@example.com",
  ])("finds none where no parser reads an authority: %j", (raw) => {
    expect(hasUserinfo(raw)).toBe(false);
  });
});

describe("redactUserinfo", () => {
  it.each([
    ["https://u:pw@example.com/x", "https://***@example.com/x"],
    ["https://a@b:pw@example.com", "https://***@example.com"],
    ["https://u:pw with space@exa mple.com", "https://***@exa mple.com"],
    ["https:\\\\u:pw@example.com", "https:\\\\***@example.com"],
    ["//u:pw@evil.example/x", "//***@evil.example/x"],
    ["ssh://u:pw@host/r", "ssh://***@host/r"],
    // no authority for a parser, but it may still be one to the writer: redacted all the same
    ["u:pw@example.com", "***@example.com"],
    ["mailto:team@example.com", "***@example.com"],
    ["git@github.com:org/repo.git", "***@github.com:org/repo.git"],
  ])("shows %j as %j", (raw, shown) => {
    expect(redactUserinfo(raw)).toBe(shown);
  });

  it.each([
    "https://example.com/@acme",
    "/about@home",
    "https://exa mple.com/",
    "javascript:alert(1)",
    "/\\evil.example",
  ])("leaves %j as it is", (raw) => {
    expect(redactUserinfo(raw)).toBe(raw);
  });
});

describe("gitRemoteHasCredentials", () => {
  it.each([
    "https://user:token@example.com/org/repo.git",
    "https://token@example.com/org/repo.git",
    "HTTP://token@example.com/repo",
    "ftps://u@example.com/repo",
    "ssh://u:pw@example.com/r",
    "git+ssh://u:pw@example.com/r",
    "u:pw@example.com:org/repo.git",
  ])("refuses %j", (raw) => {
    expect(gitRemoteHasCredentials(raw)).toBe(true);
  });

  it.each([
    "git@github.com:org/repo.git",
    "ssh://git@example.com/repo",
    "git://example.com/repo.git",
    "https://example.com/org/repo.git",
    "https://example.com/@org/repo.git",
    "file:///srv/git/repo",
    "/srv/git/repo",
    "./repo",
  ])("accepts %j", (raw) => {
    expect(gitRemoteHasCredentials(raw)).toBe(false);
  });
});
