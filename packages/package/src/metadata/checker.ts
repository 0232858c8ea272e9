import { ExitCode, PkgError } from "@pkg/common";

/** A JSON object as read, before validation. */
export type JsonObject = Record<string, unknown>;

/**
 * Typed reads of untrusted JSON, each failing with exit 65 and one line that names the source
 * and the key path (`metadata.json: env[0].type must be "path" or "constant"`).
 */
export class Checker {
  constructor(readonly source: string) {}

  fail(path: string, problem: string): never {
    throw new PkgError(ExitCode.Data, `${this.source}: ${path === "" ? "the document" : path} ${problem}`);
  }

  object(value: unknown, path: string): JsonObject {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      this.fail(path, "must be a JSON object");
    return value as JsonObject;
  }

  /** Refuses any key outside `known`. */
  onlyKeys(object: JsonObject, path: string, known: readonly string[]): void {
    for (const key of Object.keys(object)) {
      if (!known.includes(key)) {
        throw new PkgError(ExitCode.Data, `${this.source}: ${child(path, key)} is not a known key`);
      }
    }
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, "must be an array");
    return value;
  }

  string(value: unknown, path: string, pattern?: { test: RegExp; describe: string }): string {
    if (typeof value !== "string" || value.length === 0) this.fail(path, "must be a non-empty string");
    if (pattern && !pattern.test.test(value))
      this.fail(path, `${JSON.stringify(value)} must be ${pattern.describe}`);
    return value;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== "boolean") this.fail(path, "must be true or false");
    return value;
  }

  oneOf<T extends string>(value: unknown, path: string, choices: readonly T[]): T {
    if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
      this.fail(
        path,
        `must be ${choices
          .map((c) => JSON.stringify(c))
          .join(", ")
          .replace(/, ([^,]*)$/, " or $1")}`,
      );
    }
    return value as T;
  }

  /** A list of strings: non-empty and distinct unless `options` allow otherwise. */
  strings(
    value: unknown,
    path: string,
    options: { pattern?: { test: RegExp; describe: string }; allowEmpty?: boolean; distinct?: boolean } = {},
  ): string[] {
    const items = this.array(value, path).map((item, i) => {
      if (options.allowEmpty && item === "") return item;
      return this.string(item, `${path}[${i}]`, options.pattern);
    });
    if (options.distinct !== false) {
      items.forEach((item, i) => {
        if (items.indexOf(item) !== i) this.fail(`${path}[${i}]`, `repeats ${JSON.stringify(item)}`);
      });
    }
    return items;
  }
}

export function child(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
