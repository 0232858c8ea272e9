import { ExitCode } from "@pkg/common";
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineCounter,
  type Node as YamlNode,
} from "yaml";
import { closest, type SpecDiagnostic, type SpecPosition } from "./diagnostics.js";

/** Collects the diagnostics of one load; shared by every field of every file in an `extends` chain. */
export class Diagnostics {
  readonly list: SpecDiagnostic[] = [];

  add(exitCode: SpecDiagnostic["exitCode"], at: SpecPosition, keyPath: string, message: string): void {
    this.list.push({ exitCode, ...at, keyPath, message });
  }

  get failed(): boolean {
    return this.list.length > 0;
  }
}

/** One parsed YAML file: its document and how to turn offsets into line:col. */
export interface SpecSource {
  file: string;
  /** Directory the spec's own relative paths resolve against. */
  dir: string;
  doc: Document;
  lines: LineCounter;
}

type Usage = typeof ExitCode.Usage | typeof ExitCode.Data;

function appendKey(path: string, key: string): string {
  const plain = /^[A-Za-z0-9_/+.-]+$/.test(key) && !key.includes("..");
  if (path === "") return plain ? key : JSON.stringify(key);
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * A value at a key path of a spec file, present or not. Readers return the value or undefined;
 * a value of the wrong shape adds a diagnostic naming the path, the position and what was
 * expected, so one load reports every problem it can find.
 */
export class Field {
  constructor(
    readonly source: SpecSource,
    readonly diagnostics: Diagnostics,
    readonly node: YamlNode | null | undefined,
    readonly path: string,
    /** Where to point when the value is absent: the enclosing map (or the key). */
    readonly anchor: YamlNode | null | undefined,
  ) {}

  get present(): boolean {
    return this.node !== undefined;
  }

  /** The resolved node: aliases are followed (their target was bounded by the parser). */
  get value(): YamlNode | null | undefined {
    const node = this.node;
    if (node && isAlias(node)) return node.resolve(this.source.doc) as YamlNode | undefined;
    return node;
  }

  get isNull(): boolean {
    const v = this.value;
    return v === null || (isScalar(v) && v.value === null);
  }

  position(node: YamlNode | null | undefined = this.node ?? this.anchor): SpecPosition {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = this.source.lines.linePos(offset);
    return { file: this.source.file, line, col };
  }

  /** Adds a diagnostic at this field; returns undefined so readers can `return f.fail(...)`. */
  fail(message: string, exitCode: Usage = ExitCode.Data): undefined {
    this.diagnostics.add(exitCode, this.position(), this.path, message);
    return undefined;
  }

  private expected(what: string): undefined {
    return this.fail(`expected ${what}, found ${describe(this.value)}`);
  }

  string(options: { nonEmpty?: boolean } = {}): string | undefined {
    const v = this.value;
    if (!isScalar(v) || typeof v.value !== "string") return this.expected("a string");
    if (options.nonEmpty && v.value.trim() === "") return this.fail("must not be empty");
    return v.value;
  }

  boolean(): boolean | undefined {
    const v = this.value;
    if (!isScalar(v) || typeof v.value !== "boolean") return this.expected("true or false");
    return v.value;
  }

  integer(options: { min?: number; max?: number } = {}): number | undefined {
    const v = this.value;
    if (!isScalar(v) || typeof v.value !== "number" || !Number.isSafeInteger(v.value)) {
      return this.expected("a whole number");
    }
    const { min, max } = options;
    if (min !== undefined && v.value < min) return this.fail(`must be at least ${min}, not ${v.value}`);
    if (max !== undefined && v.value > max) return this.fail(`must be at most ${max}, not ${v.value}`);
    return v.value;
  }

  /** One of the listed strings. */
  oneOf<const T extends string>(allowed: readonly T[]): T | undefined {
    const text = this.string();
    if (text === undefined) return undefined;
    if ((allowed as readonly string[]).includes(text)) return text as T;
    const near = closest(text, allowed);
    return this.fail(
      `expected one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, not ${JSON.stringify(text)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
    );
  }

  /** A string matching `pattern`; `what` says what the pattern means. */
  matching(pattern: RegExp, what: string, exitCode: Usage = ExitCode.Data): string | undefined {
    const text = this.string();
    if (text === undefined) return undefined;
    if (!pattern.test(text)) return this.fail(`${JSON.stringify(text)} is not ${what}`, exitCode);
    return text;
  }

  list(options: { nonEmpty?: boolean } = {}): Field[] | undefined {
    const v = this.value;
    if (!isSeq(v)) return this.expected("a list");
    if (options.nonEmpty && v.items.length === 0) return this.fail("must hold at least one entry");
    return v.items.map(
      (item, i) => new Field(this.source, this.diagnostics, item as YamlNode | null, `${this.path}[${i}]`, v),
    );
  }

  /** A list of strings, each checked by `check` when given. */
  strings(options: { nonEmpty?: boolean; nonEmptyItems?: boolean } = {}): string[] | undefined {
    const items = this.list(options);
    if (!items) return undefined;
    const out: string[] = [];
    for (const item of items) {
      const text = item.string({ nonEmpty: options.nonEmptyItems });
      if (text !== undefined) out.push(text);
    }
    return out.length === items.length ? out : undefined;
  }

  map(): MapField | undefined {
    const v = this.value;
    if (!isMap(v)) return this.expected("a mapping");
    return new MapField(this.source, this.diagnostics, this.node, this.path, this.anchor);
  }
}

/** A mapping: its keys in order, each value as a Field. */
export class MapField extends Field {
  /** Keys as written, with their key nodes (for pointing at an unknown key). */
  readonly entries: Array<{ key: string; keyNode: YamlNode | null; value: YamlNode | null }>;

  constructor(...args: ConstructorParameters<typeof Field>) {
    super(...args);
    const v = this.value;
    this.entries = [];
    if (!isMap(v)) return;
    for (const pair of v.items) {
      const keyNode = pair.key as YamlNode | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
      this.entries.push({ key, keyNode, value: pair.value as YamlNode | null });
    }
  }

  get keys(): string[] {
    return this.entries.map((e) => e.key);
  }

  has(key: string): boolean {
    return this.entries.some((e) => e.key === key);
  }

  get(key: string): Field {
    const entry = this.entries.find((e) => e.key === key);
    return new Field(
      this.source,
      this.diagnostics,
      entry?.value ?? (entry ? null : undefined),
      appendKey(this.path, key),
      entry?.keyNode ?? this.node,
    );
  }

  /** Every entry as a Field, for maps keyed by data (platform keys, variant names). */
  fields(): Array<{ key: string; field: Field; keyField: Field }> {
    return this.entries.map((e) => ({
      key: e.key,
      field: new Field(
        this.source,
        this.diagnostics,
        e.value ?? null,
        appendKey(this.path, e.key),
        e.keyNode,
      ),
      keyField: new Field(this.source, this.diagnostics, e.keyNode, appendKey(this.path, e.key), e.keyNode),
    }));
  }

  /** Refuses keys outside `allowed` (exit 65), naming the closest known key when one is near. */
  only(allowed: readonly string[]): void {
    for (const entry of this.entries) {
      if (allowed.includes(entry.key)) continue;
      const near = closest(entry.key, allowed);
      const at = new Field(
        this.source,
        this.diagnostics,
        entry.keyNode,
        appendKey(this.path, entry.key),
        entry.keyNode,
      );
      at.fail(
        `unknown key ${JSON.stringify(entry.key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
      );
    }
  }

  /** The field of a key that must be present; reports its absence at the mapping. */
  require(key: string, exitCode: Usage = ExitCode.Data): Field | undefined {
    const field = this.get(key);
    if (field.present) return field;
    this.diagnostics.add(exitCode, this.position(), this.path, `missing required key ${JSON.stringify(key)}`);
    return undefined;
  }

  /** Exactly one of `keys` must be present; returns it. */
  exactlyOne(keys: readonly string[]): string | undefined {
    const present = keys.filter((k) => this.has(k));
    if (present.length === 1) return present[0];
    const list = keys.map((k) => JSON.stringify(k)).join(", ");
    this.fail(
      present.length === 0
        ? `needs one of ${list}`
        : `takes only one of ${list}, found ${present.join(" and ")}`,
    );
    return undefined;
  }
}

function describe(node: YamlNode | null | undefined): string {
  if (node === undefined) return "nothing";
  if (node === null || (isScalar(node) && node.value === null)) return "null";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isScalar(node)) {
    const value = node.value;
    if (typeof value === "string")
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    return `${typeof value} ${String(value)}`;
  }
  return "an unexpected value";
}
