import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const target = (fields: Fields) => spec({ target: fields });

export const cases: ConformanceCase[] = [
  {
    rule: "target: repository path segments are kept as written, never flattened",
    yaml: target({ registry: "ghcr.io", repository: "acme/tools/tool" }),
    exit: 0,
    check: (s) => expect(s.target).toEqual({ registry: "ghcr.io", repository: "acme/tools/tool" }),
  },
  {
    rule: "target.registry: a host with a port",
    yaml: target({ registry: "localhost:5000", repository: "tool" }),
    exit: 0,
    check: (s) => expect(s.target).toEqual({ registry: "localhost:5000", repository: "tool" }),
  },
  {
    rule: "target: required",
    yaml: spec({ target: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "target"/,
  },
  {
    rule: "target: must be a mapping",
    yaml: spec({ target: "ghcr.io/acme/tool" }),
    exit: 65,
    path: "target",
    message: /expected a mapping/,
  },
  {
    rule: "target.registry: required",
    yaml: target({ repository: "acme/tool" }),
    exit: 65,
    path: "target",
    message: /missing required key "registry"/,
  },
  {
    rule: "target.repository: required",
    yaml: target({ registry: "ghcr.io" }),
    exit: 65,
    path: "target",
    message: /missing required key "repository"/,
  },
  {
    rule: "target: unknown keys are refused, naming the closest known key",
    yaml: target({ registy: "ghcr.io", repository: "acme/tool" }),
    exit: 65,
    path: "target.registy",
    message: /unknown key "registy" \(did you mean "registry"\?\)/,
  },
  {
    rule: "target: a key of no section is refused",
    yaml: target({ registry: "ghcr.io", repository: "acme/tool", tag: "latest" }),
    exit: 65,
    path: "target.tag",
    message: /unknown key "tag"/,
  },
  {
    rule: "target.registry: a host, not a URL",
    yaml: target({ registry: "https://ghcr.io", repository: "acme/tool" }),
    exit: 65,
    path: "target.registry",
    message: /without a URL scheme/,
  },
  {
    rule: "target.registry: the path belongs in repository",
    yaml: target({ registry: "ghcr.io/acme", repository: "tool" }),
    exit: 65,
    path: "target.registry",
    message: /target\.repository/,
  },
  {
    rule: "target.registry: a valid host[:port]",
    yaml: target({ registry: "ghcr.io:99999", repository: "tool" }),
    exit: 65,
    path: "target.registry",
    message: /not a registry host/,
  },
  {
    rule: "target.registry: a string",
    yaml: target({ registry: 5000, repository: "tool" }),
    exit: 65,
    path: "target.registry",
    message: /expected a string/,
  },
  {
    rule: "target.repository: lowercase segments",
    yaml: target({ registry: "ghcr.io", repository: "Acme/Tool" }),
    exit: 65,
    path: "target.repository",
    message: /not a repository path/,
  },
  {
    rule: "target.repository: no empty segment",
    yaml: target({ registry: "ghcr.io", repository: "acme//tool" }),
    exit: 65,
    path: "target.repository",
    message: /not a repository path/,
  },
  {
    rule: "target.repository: no leading slash",
    yaml: target({ registry: "ghcr.io", repository: "/acme/tool" }),
    exit: 65,
    path: "target.repository",
    message: /not a repository path/,
  },
  {
    rule: "target.repository: not empty",
    yaml: target({ registry: "ghcr.io", repository: "" }),
    exit: 65,
    path: "target.repository",
    message: /must not be empty/,
  },
];
