import { describe, expect, it } from "vitest";
import { fileVersion, listedVersions, parseProjectPage } from "./simple-index.js";

describe("parseProjectPage", () => {
  it("reads a PEP 503 page: relative links, hash fragments, entities, data-yanked with and without a reason", () => {
    const html = `<html><body>
      <a href="../../f/a-1.0-py3-none-any.whl#sha256=ABCD" data-requires-python="&gt;=3.8">a-1.0-py3-none-any.whl</a>
      <a href="/f/a-1.1.tar.gz" data-yanked>a-1.1.tar.gz</a>
      <a data-yanked="bad &amp; broken" href='https://cdn.example/a-1.2-py3-none-any.whl'>a-1.2-py3-none-any.whl</a>
    </body></html>`;
    expect(parseProjectPage(html, "text/html", "https://idx.example/simple/a/")).toEqual([
      {
        filename: "a-1.0-py3-none-any.whl",
        url: "https://idx.example/f/a-1.0-py3-none-any.whl",
        hashes: { sha256: "abcd" },
        requiresPython: ">=3.8",
        yanked: false,
      },
      { filename: "a-1.1.tar.gz", url: "https://idx.example/f/a-1.1.tar.gz", hashes: {}, yanked: true },
      {
        filename: "a-1.2-py3-none-any.whl",
        url: "https://cdn.example/a-1.2-py3-none-any.whl",
        hashes: {},
        yanked: "bad & broken",
      },
    ]);
  });

  it("reads a PEP 691 page by its content type, yanked as a boolean or a reason", () => {
    const json = JSON.stringify({
      meta: { "api-version": "1.0" },
      name: "a",
      files: [
        { filename: "a-1.0.tar.gz", url: "a-1.0.tar.gz", hashes: { sha256: "ff" }, yanked: false },
        { filename: "a-2.0.tar.gz", url: "a-2.0.tar.gz", hashes: {}, yanked: true },
      ],
    });
    const files = parseProjectPage(
      json,
      "application/vnd.pypi.simple.v1+json",
      "https://idx.example/simple/a/",
    );
    expect(files.map((f) => [f.url, f.yanked])).toEqual([
      ["https://idx.example/simple/a/a-1.0.tar.gz", false],
      ["https://idx.example/simple/a/a-2.0.tar.gz", true],
    ]);
    expect(() => parseProjectPage("{", "application/vnd.pypi.simple.v1+json", "https://x/")).toThrow(
      "does not parse",
    );
  });
});

describe("listedVersions", () => {
  it("lists a version only with a non-yanked file; versions from wheel and sdist names of this project only", () => {
    const file = (filename: string, yanked: boolean | string = false) => ({
      filename,
      url: `https://x/${filename}`,
      hashes: {},
      yanked,
    });
    const listed = listedVersions(
      [
        file("My.App-1.0.tar.gz"),
        file("my_app-1.0-py3-none-any.whl"),
        file("my_app-1.1-py3-none-any.whl", "oops"),
        file("my_app-1.2rc1-py3-none-any.whl"),
        file("my_app_extra-3.0-py3-none-any.whl"),
        file("my-app-latest.tar.gz"),
      ],
      "my-app",
    );
    expect(listed.map((v) => [v.version, v.prerelease, v.files.length])).toEqual([
      ["1.0", false, 2],
      ["1.2rc1", true, 1],
    ]);
    expect(fileVersion("my-app-2.0.post1.zip", "My_App")).toBe("2.0.post1");
    expect(fileVersion("my_app-2.0-x-py3-none-any.whl", "my-app")).toBeUndefined();
  });
});
