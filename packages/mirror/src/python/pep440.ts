/**
 * PEP 440 versions: parsing any permitted spelling, the normal form, the ordering, and the
 * properties the mirror asks about (pre-release, local part). Specifiers are in specifier.ts.
 */

export interface Pep440Version {
  epoch: bigint;
  release: bigint[];
  /** `a`, `b` or `rc` with its number. */
  pre?: { label: "a" | "b" | "rc"; n: bigint };
  post?: bigint;
  dev?: bigint;
  /** Local segments: numbers stay numbers, the rest lowercase text. */
  local?: Array<bigint | string>;
}

const VERSION =
  /^\s*v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(alpha|beta|preview|pre|rc|a|b|c)[-_.]?(\d+)?)?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?(?:[-_.]?(dev)[-_.]?(\d+)?)?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$/i;

const PRE_LABEL: Record<string, "a" | "b" | "rc"> = {
  a: "a",
  alpha: "a",
  b: "b",
  beta: "b",
  c: "rc",
  rc: "rc",
  pre: "rc",
  preview: "rc",
};

/** The version `text` spells, or undefined when it is not PEP 440. */
export function parseVersion(text: string): Pep440Version | undefined {
  const m = VERSION.exec(text);
  if (!m) return undefined;
  const [, epoch, release, preLabel, preN, implicitPost, postLabel, postN, devLabel, devN, local] = m;
  const version: Pep440Version = {
    epoch: BigInt(epoch ?? "0"),
    release: (release as string).split(".").map((part) => BigInt(part)),
  };
  if (preLabel !== undefined) {
    version.pre = { label: PRE_LABEL[preLabel.toLowerCase()] as "a" | "b" | "rc", n: BigInt(preN ?? "0") };
  }
  if (implicitPost !== undefined) version.post = BigInt(implicitPost);
  else if (postLabel !== undefined) version.post = BigInt(postN ?? "0");
  if (devLabel !== undefined) version.dev = BigInt(devN ?? "0");
  if (local !== undefined) {
    version.local = local
      .toLowerCase()
      .split(/[-_.]/)
      .map((part) => (/^\d+$/.test(part) ? BigInt(part) : part));
  }
  return version;
}

export function isVersion(text: string): boolean {
  return parseVersion(text) !== undefined;
}

/** The normal form (what `str(Version(text))` prints in Python). */
export function formatVersion(v: Pep440Version): string {
  const local = v.local === undefined ? "" : `+${v.local.join(".")}`;
  return `${publicVersion(v)}${local}`;
}

/** The normal form without the local part. */
export function publicVersion(v: Pep440Version): string {
  let text = baseVersion(v);
  if (v.pre) text += `${v.pre.label}${v.pre.n}`;
  if (v.post !== undefined) text += `.post${v.post}`;
  if (v.dev !== undefined) text += `.dev${v.dev}`;
  return text;
}

/** Epoch and release only (`1!2.0`, `1.0`). */
export function baseVersion(v: Pep440Version): string {
  return `${v.epoch === 0n ? "" : `${v.epoch}!`}${v.release.join(".")}`;
}

/** A pre-release or a development release. */
export function isPrerelease(v: Pep440Version): boolean {
  return v.pre !== undefined || v.dev !== undefined;
}

/** The version without its local part. */
export function withoutLocal(v: Pep440Version): Pep440Version {
  const { local: _local, ...rest } = v;
  return rest;
}

/** Normalises `text` when it is a version; undefined otherwise. */
export function normalizeVersion(text: string): string | undefined {
  const v = parseVersion(text);
  return v && formatVersion(v);
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const PRE_RANK = { a: 0, b: 1, rc: 2 } as const;

/** -1, 0 or 1 as `a` sorts before, with or after `b` under PEP 440. */
export function compareVersions(a: Pep440Version, b: Pep440Version): number {
  return (
    cmp(a.epoch, b.epoch) ||
    compareRelease(a.release, b.release) ||
    comparePhase(a, b) ||
    compareOptional(a.post, b.post, -1) ||
    compareOptional(a.dev, b.dev, 1) ||
    compareLocal(a.local, b.local)
  );
}

/** Compares two version texts; an unparsable text throws (callers parse first). */
export function compareVersionTexts(a: string, b: string): number {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  if (!va || !vb) throw new Error(`not a PEP 440 version: ${JSON.stringify(va ? b : a)}`);
  return compareVersions(va, vb);
}

/** Trailing zeros do not count: 1.0 == 1.0.0. */
function compareRelease(a: bigint[], b: bigint[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = cmp(a[i] ?? 0n, b[i] ?? 0n);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The pre-release phase: a bare dev release sorts before every pre-release of its release, a
 * final (or post) release after all of them.
 */
function comparePhase(a: Pep440Version, b: Pep440Version): number {
  return Math.sign(phaseRank(a) - phaseRank(b)) || (a.pre && b.pre ? cmp(a.pre.n, b.pre.n) : 0);
}

function phaseRank(v: Pep440Version): number {
  if (v.pre) return PRE_RANK[v.pre.label];
  if (v.post === undefined && v.dev !== undefined) return -1;
  return 3;
}

/** An absent part sorts `absent` (-1 before, 1 after) any present one. */
function compareOptional(a: bigint | undefined, b: bigint | undefined, absent: number): number {
  if (a === undefined && b === undefined) return 0;
  if (a === undefined) return absent;
  if (b === undefined) return -absent;
  return cmp(a, b);
}

/** No local part sorts first; numeric segments sort after text ones; a longer run after its prefix. */
function compareLocal(a: Array<bigint | string> | undefined, b: Array<bigint | string> | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as bigint | string;
    const y = b[i] as bigint | string;
    if (typeof x === "bigint" && typeof y === "bigint") {
      if (x !== y) return cmp(x, y);
    } else if (typeof x === "bigint") return 1;
    else if (typeof y === "bigint") return -1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}
