/**
 * A project on a code forge, `[HOST/]NAMESPACE/PROJECT` (`acme/index`,
 * `gitlab.example.com/group/sub/index`). The first segment is a host when it has a dot or a port
 * or is `localhost`; without one the project is on the public forgeone host.
 */
export interface ForgeCoordinate {
  /** As written; handed on verbatim. */
  text: string;
  /** Lowercase host, the public forgeone host when none was written. */
  host: string;
  /** One segment, or several (`group/sub`) for a nested namespace. */
  namespace: string;
  project: string;
}

export type Forge = "forgeone" | "forgetwo";

/** The two public hosts, whose forge is known: forgeone is GitHub-style, forgetwo GitLab-style. */
export const PUBLIC_FORGE_HOSTS: Readonly<Record<string, Forge>> = {
  "github.com": "forgeone",
  "gitlab.com": "forgetwo",
};
export const DEFAULT_FORGE_HOST = "github.com";

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** Parses a coordinate or says in a few words why the text is not one. */
export function matchForgeCoordinate(text: string): ForgeCoordinate | string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/]*@[^/]*:/.test(text)) {
    return "is a URL; write [HOST/]NAMESPACE/PROJECT (for example acme/index)";
  }
  const segments = text.split("/");
  const first = segments[0] ?? "";
  let host = DEFAULT_FORGE_HOST;
  if (first.includes(".") || first.includes(":") || first === "localhost") {
    const problem = hostProblem(first);
    if (problem) return problem;
    host = first.toLowerCase();
    segments.shift();
  }
  if (segments.length < 2) return "expected [HOST/]NAMESPACE/PROJECT";
  const bad = segments.find((segment) => !SEGMENT.test(segment) || segment === "." || segment === "..");
  if (bad !== undefined) {
    return `${JSON.stringify(bad)} is not a namespace or project name (letters, digits, '.', '_', '-')`;
  }
  const project = segments.pop() ?? "";
  return { text, host, namespace: segments.join("/"), project };
}

function hostProblem(host: string): string | undefined {
  const [name = "", port, ...more] = host.split(":");
  if (more.length > 0 || (port !== undefined && !/^[0-9]{1,5}$/.test(port))) {
    return `${JSON.stringify(host)} is not a host[:port]`;
  }
  if (!name.split(".").every((label) => HOST_LABEL.test(label)))
    return `${JSON.stringify(host)} is not a host name`;
  return undefined;
}
