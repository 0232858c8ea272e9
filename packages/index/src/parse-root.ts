import { Checker } from "./checker.js";
import { documentValue } from "./decode.js";
import { isSha256Digest } from "./digest.js";
import { DEFAULT_NAME_SEGMENTS, isSafePackagePath, isValidTagName, splitPackageName } from "./grammar.js";
import { childPath } from "./json-path.js";
import type { PackageRoot } from "./types.js";

export interface PackageRootOptions {
  /** `name_segments` of the index's config.json; 2 when absent. */
  nameSegments?: number;
}

const REPOSITORY =
  /^oci:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$/;
const GITHUB_LOGIN = /^[a-zA-Z\d](?:[a-zA-Z\d]|-(?=[a-zA-Z\d])){0,38}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const HTTPS = /^https:\/\/[^\s]+$/;
const VARIANT = /^[a-z][a-z0-9.]*$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const ROOT_KEYS = [
  "name",
  "repository",
  "owners",
  "status",
  "deprecated_message",
  "superseded_by",
  "created",
  "upstream",
  "source",
  "variants",
  "desc",
  "tags",
] as const;
const ROOT_REQUIRED = [
  "name",
  "repository",
  "owners",
  "status",
  "deprecated_message",
  "created",
  "desc",
  "tags",
];
const STATUSES = ["active", "deprecated", "yanked"];

/** `/p/<ns>/<pkg>.json` (root.schema.json). The name's first segment may be any lowercase DNS-like
 *  label, where the schema pins `ocx.sh`. */
export function parsePackageRoot(
  input: unknown,
  where: string,
  options: PackageRootOptions = {},
): PackageRoot {
  const segments = options.nameSegments ?? DEFAULT_NAME_SEGMENTS;
  const check = new Checker(where);
  const root = check.object(documentValue(input, where), "$");
  check.members(root, "$", ROOT_REQUIRED, ROOT_KEYS);

  const name = check.string(root.name, "$.name");
  if (splitPackageName(name, segments) === undefined) check.fail("$.name", "not a valid package name");
  check.string(root.repository, "$.repository", { pattern: REPOSITORY, what: "not an oci:// repository" });
  const owners = check.array(root.owners, "$.owners");
  if (owners.length === 0) check.fail("$.owners", "empty array");
  owners.forEach((owner, i) => {
    checkOwner(check, owner, childPath("$.owners", i));
  });
  if (!STATUSES.includes(check.string(root.status, "$.status"))) {
    check.fail("$.status", `not one of ${STATUSES.join(", ")}`);
  }
  if (root.deprecated_message !== null) check.string(root.deprecated_message, "$.deprecated_message");
  if (root.superseded_by !== undefined && root.superseded_by !== null) {
    const successor = check.string(root.superseded_by, "$.superseded_by");
    if (!isSafePackagePath(successor)) check.fail("$.superseded_by", "not a valid package path");
  }
  check.string(root.created, "$.created", { pattern: DATE, what: "not a YYYY-MM-DD date" });
  if (root.upstream !== undefined) checkUpstream(check, root.upstream, "$.upstream");
  if (root.source !== undefined && root.source !== null) {
    check.string(root.source, "$.source", { max: 2048, pattern: HTTPS, what: "not an https URL" });
  }
  if (root.variants !== undefined) checkVariants(check, root.variants, "$.variants");
  if (root.desc !== null) checkDesc(check, root.desc, "$.desc");
  checkTags(check, root.tags, "$.tags");
  return root as unknown as PackageRoot;
}

function checkDigest(check: Checker, value: unknown, path: string): void {
  if (!isSha256Digest(value)) check.fail(path, "not a sha256 digest");
}

function checkOwner(check: Checker, value: unknown, path: string): void {
  const owner = check.object(value, path);
  check.members(owner, path, ["github", "github_id"], ["github", "github_id"]);
  check.string(owner.github, `${path}.github`, { pattern: GITHUB_LOGIN, what: "not a valid GitHub login" });
  check.integer(owner.github_id, `${path}.github_id`, 1);
}

function checkUpstream(check: Checker, value: unknown, path: string): void {
  const upstream = check.object(value, path);
  check.members(upstream, path, ["org"], ["org", "repository_url", "disclaimer"]);
  check.string(upstream.org, `${path}.org`, { min: 1 });
  if (upstream.repository_url !== undefined) {
    const url = check.string(upstream.repository_url, `${path}.repository_url`);
    if (!URI_SCHEME.test(url) || !URL.canParse(url))
      check.fail(`${path}.repository_url`, "not an absolute URI");
  }
  if (upstream.disclaimer !== undefined && upstream.disclaimer !== null) {
    check.string(upstream.disclaimer, `${path}.disclaimer`);
  }
}

function checkVariants(check: Checker, value: unknown, path: string): void {
  const variants = check.stringArray(value, path, { pattern: VARIANT, what: "not a valid variant name" });
  if (variants.length === 0) check.fail(path, "empty array");
  variants.forEach((variant, i) => {
    if (variant === "latest") check.fail(childPath(path, i), "`latest` is reserved");
    if (variants.indexOf(variant) !== i) check.fail(childPath(path, i), "duplicate variant");
  });
}

function checkDesc(check: Checker, value: unknown, path: string): void {
  const desc = check.object(value, path);
  check.members(
    desc,
    path,
    ["digest", "title", "description", "keywords"],
    ["digest", "title", "description", "keywords", "readme", "logo"],
  );
  checkDigest(check, desc.digest, `${path}.digest`);
  check.string(desc.title, `${path}.title`, { min: 1 });
  check.string(desc.description, `${path}.description`);
  check.stringArray(desc.keywords, `${path}.keywords`, { min: 1 });
  if (desc.readme !== undefined) checkDigest(check, desc.readme, `${path}.readme`);
  if (desc.logo !== undefined) checkDigest(check, desc.logo, `${path}.logo`);
}

function checkTags(check: Checker, value: unknown, path: string): void {
  const tags = check.object(value, path);
  for (const [tag, entryValue] of Object.entries(tags)) {
    const tagPath = childPath(path, tag);
    if (!isValidTagName(tag)) check.fail(tagPath, "not a valid tag name");
    const entry = check.object(entryValue, tagPath);
    check.members(entry, tagPath, ["content", "observed"], ["content", "observed", "yanked"]);
    checkDigest(check, entry.content, `${tagPath}.content`);
    check.string(entry.observed, `${tagPath}.observed`, {
      pattern: TIMESTAMP,
      what: "not a YYYY-MM-DDThh:mm:ssZ time",
    });
    if (entry.yanked !== undefined) {
      const yankedPath = `${tagPath}.yanked`;
      const yanked = check.object(entry.yanked, yankedPath);
      check.members(yanked, yankedPath, ["reason", "at"], ["reason", "at"]);
      check.string(yanked.reason, `${yankedPath}.reason`, { min: 1 });
      check.string(yanked.at, `${yankedPath}.at`, {
        pattern: TIMESTAMP,
        what: "not a YYYY-MM-DDThh:mm:ssZ time",
      });
    }
  }
}
