import { ExitCode, registerSecret } from "@pkg/common";
import { isScalar } from "yaml";
import type { Field } from "./field.js";

/**
 * A `sign` reference as written (`text`, passed on verbatim) and its form: a literal (a key path
 * or a URL), `env://NAME`, `file://PATH`, or a key-management-service URI, which loads and then
 * fails at use (exit 82) because only `file` and `env://` keys are implemented.
 */
export type SignRef =
  | { form: "literal"; text: string }
  | { form: "env"; text: string; name: string }
  | { form: "file"; text: string; path: string }
  | { form: "kms"; text: string; scheme: string };

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** The package tool strips exactly these from its children's environments. */
const STRIPPED_NAMES = ["PKG_IDENTITY_TOKEN", "PKG_KEY_PASSWORD", "PKG_SIGNING_KEY"];
const KMS_SCHEMES = ["awskms", "gcpkms", "azurekms", "hashivault", "k8s"];

/**
 * Reads a reference. Every refusal is a usage error (exit 64) whose message never repeats the
 * value: it may be a pasted secret, which is also registered for redaction. `secret` refs
 * (passphrase, identity token) take only `env://` or `file://`.
 */
export function readSignRef(field: Field, options: { secret?: boolean } = {}): SignRef | undefined {
  const node = field.value;
  if (field.isNull) return field.fail("a reference must not be empty", ExitCode.Usage);
  const literal = "a secret is never written in the spec; reference it as env://NAME or file://PATH";
  if (!isScalar(node) || typeof node.value !== "string") {
    // an unquoted number under a secret ref is still a pasted literal secret
    if (isScalar(node) && options.secret) {
      registerSecret(node.source ?? String(node.value));
      return field.fail(literal, ExitCode.Usage);
    }
    return field.fail("expected a reference: a literal, env://NAME or file://PATH");
  }
  const text = node.value;
  if (text.trim() === "") return field.fail("a reference must not be empty", ExitCode.Usage);
  if (text.includes("BEGIN")) {
    registerSecret(text);
    return field.fail(
      "holds key material (BEGIN …); store it in a secret and reference it as env://NAME or file://PATH",
      ExitCode.Usage,
    );
  }
  const ref = classify(text);
  if (options.secret && ref.form !== "env" && ref.form !== "file") {
    registerSecret(text);
    return field.fail(literal, ExitCode.Usage);
  }
  if (ref.form === "env") {
    if (!ENV_NAME.test(ref.name)) {
      return field.fail(
        "the env:// name is not an environment variable name (^[A-Z_][A-Z0-9_]*$)",
        ExitCode.Usage,
      );
    }
    if (STRIPPED_NAMES.includes(ref.name)) {
      return field.fail(
        "the env:// name is one the package tool strips from its children's environments; use a different name",
        ExitCode.Usage,
      );
    }
  }
  if (ref.form === "file" && ref.path.trim() === "")
    return field.fail("the file:// path is empty", ExitCode.Usage);
  return ref;
}

function classify(text: string): SignRef {
  if (text.startsWith("env://")) return { form: "env", text, name: text.slice("env://".length) };
  if (text.startsWith("file://")) return { form: "file", text, path: text.slice("file://".length) };
  const scheme = /^([a-z0-9]+):\/\//.exec(text)?.[1];
  if (scheme !== undefined && KMS_SCHEMES.includes(scheme)) return { form: "kms", text, scheme };
  return { form: "literal", text };
}
