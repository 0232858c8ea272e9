import { describe, expect, test } from "vitest";
import { annotationsFor, REVISION_ANNOTATION, SOURCE_ANNOTATION } from "./annotations.js";

const ci = {
  GITHUB_SERVER_URL: "https://forge.example/",
  GITHUB_REPOSITORY: "acme/mirrors",
  GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
};

describe("annotationsFor", () => {
  test("fills source and revision from the CI variables", () => {
    expect(annotationsFor({}, ci)).toEqual({
      [SOURCE_ANNOTATION]: "https://forge.example/acme/mirrors",
      [REVISION_ANNOTATION]: ci.GITHUB_SHA,
    });
  });

  test("writes nothing outside CI, and reads no other variable", () => {
    expect(annotationsFor({}, {})).toEqual({});
    expect(
      annotationsFor(
        {},
        { CI_SERVER_URL: "https://x", CI_PROJECT_PATH: "a/b", CI_COMMIT_SHA: "abc", FORGEONE_SHA: "abc" },
      ),
    ).toEqual({});
  });

  test("a half-set pair writes only what it can name", () => {
    expect(annotationsFor({}, { GITHUB_SHA: "abc", GITHUB_SERVER_URL: "https://forge.example" })).toEqual({
      [REVISION_ANNOTATION]: "abc",
    });
    expect(annotationsFor({}, { GITHUB_SERVER_URL: "  ", GITHUB_REPOSITORY: "acme/mirrors" })).toEqual({});
  });

  test("a key of the spec replaces the detected value of that key only; values are verbatim", () => {
    const spec = { annotations: { [REVISION_ANNOTATION]: " pinned = yes ", "org.example.team": "tools" } };
    expect(annotationsFor(spec, ci)).toEqual({
      [SOURCE_ANNOTATION]: "https://forge.example/acme/mirrors",
      [REVISION_ANNOTATION]: " pinned = yes ",
      "org.example.team": "tools",
    });
    expect(annotationsFor(spec, {})).toEqual(spec.annotations);
  });
});
