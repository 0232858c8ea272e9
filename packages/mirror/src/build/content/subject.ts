/** What a content check names in its messages: the package and version being built. */
export interface BuildSubject {
  /** The target repository as shown to users: `ghcr.io/acme/tool`. */
  target: string;
  version: string;
}
