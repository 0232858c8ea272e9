import type { LibcFlavor } from "@pkg/package";
import type { Field } from "./field.js";
import { defaultShell, imageLibc, KNOWN_LIBC_BASES, matchImageRef } from "./image-ref.js";

/** One `platforms.<p>.containers[]` entry, defaults applied. */
export interface ContainerLeg {
  image: string;
  /** As written, or the image's known default (`sh` for alpine, `bash` for the listed distributions). */
  shell: string;
  /** As written, or the image with every character outside `[A-Za-z0-9._-]` (`:`, `/`, `@`) as `_`. */
  id: string;
  /** Image-build commands, one `RUN` each; absent when not given. */
  setup?: string[];
}

const CONTAINER_KEYS = ["image", "shell", "id", "setup"];
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Reads a container entry; `libc` is the flavour the platform key declares, if any. */
export function readContainer(field: Field, libc: LibcFlavor | undefined): ContainerLeg | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(CONTAINER_KEYS);
  const imageField = map.require("image");
  const image = imageField?.string({ nonEmpty: true });
  const ref = image === undefined ? undefined : matchImageRef(image);
  if (typeof ref === "string")
    imageField?.fail(`${JSON.stringify(image)} is not an OCI image reference: ${ref}`);
  const known = typeof ref === "object" ? ref : undefined;
  if (known && libc && imageField) checkLibc(imageField, imageLibc(known), libc, image ?? "");

  const shellField = map.get("shell");
  let shell = shellField.present ? shellField.string({ nonEmpty: true }) : undefined;
  if (!shellField.present && known) {
    shell = defaultShell(known);
    if (shell === undefined) {
      map.fail(`image ${JSON.stringify(image)} has no known default shell; set "shell" (sh, bash, ...)`);
    }
  }

  const idField = map.get("id");
  const id = idField.present
    ? idField.matching(ID, "a container id (letters, digits, '.', '_', '-')")
    : image?.replace(/[^A-Za-z0-9._-]/g, "_");

  const setupField = map.get("setup");
  const setup = setupField.present ? readSetup(setupField) : undefined;
  if (!known || shell === undefined || id === undefined || (setupField.present && !setup)) return undefined;
  return { image: image ?? "", shell, id, ...(setup ? { setup } : {}) };
}

function checkLibc(field: Field, actual: LibcFlavor | undefined, wanted: LibcFlavor, image: string): void {
  if (actual === wanted) return;
  if (actual === undefined) {
    field.fail(
      `cannot tell which libc image ${JSON.stringify(image)} uses; a +libc.${wanted} key is tested only on a known ${wanted} base (${KNOWN_LIBC_BASES.join(", ")})`,
    );
    return;
  }
  field.fail(
    `image ${JSON.stringify(image)} is a ${actual} base; a +libc.${wanted} key must be tested under ${wanted}`,
  );
}

/** Each entry becomes one `RUN` line: non-blank, one line, no trailing backslash continuation. */
function readSetup(field: Field): string[] | undefined {
  const items = field.list({ nonEmpty: true });
  if (!items) return undefined;
  const out: string[] = [];
  for (const item of items) {
    const text = item.string();
    if (text === undefined) continue;
    if (text.trim() === "") item.fail("a setup command must not be blank");
    else if (/[\r\n]/.test(text.trim()))
      item.fail("a setup command is a single line; use one entry per command");
    else if (text.trimEnd().endsWith("\\"))
      item.fail("a setup command must not end with a backslash; use one entry per command");
    else out.push(text.trimEnd());
  }
  return out.length === items.length ? out : undefined;
}
