import { ExitCode } from "@pkg/common";
import { isMap, isScalar } from "yaml";
import type { SectionContext } from "./context.js";
import { type Field, MapField } from "./field.js";
import { readSignRef, type SignRef } from "./sign-ref.js";

/** Keyless signing; an unset `cert_authority` or `log` means the package tool's public instance. */
export interface KeylessSign {
  cert_authority?: SignRef;
  log?: SignRef;
  /** Only for CIs the tool cannot detect; `env://` or `file://`. */
  identity_token?: SignRef;
}

/** Key signing; the string form `key: <ref>` is read as `{ref: <ref>}`. Without `log`, nothing is uploaded. */
export interface KeySign {
  ref: SignRef;
  /** `env://` or `file://`. */
  passphrase?: SignRef;
  log?: SignRef;
}

/** `sign`: exactly one mode tag. */
export type SignSpec = { keyless: KeylessSign } | { key: KeySign };

const MODES = ["keyless", "key"] as const;

/**
 * Reads `sign`. Messages here never describe a value (the generic "found the string …" included):
 * a value under `sign` may be a pasted secret.
 */
export function readSign(field: Field, _ctx: SectionContext): SignSpec | undefined {
  if (!isMap(field.value)) return field.fail("sign needs exactly one mode: keyless or key", ExitCode.Usage);
  const map = new MapField(field.source, field.diagnostics, field.node, field.path, field.anchor);
  map.only(MODES);
  const modes = MODES.filter((mode) => map.has(mode));
  if (modes.length !== 1) {
    return map.fail(
      modes.length === 0
        ? "sign needs exactly one mode: keyless or key"
        : "sign takes one mode, not both keyless and key",
      ExitCode.Usage,
    );
  }
  if (map.has("keyless")) {
    const keyless = readKeyless(map.get("keyless"));
    return keyless && { keyless };
  }
  const key = readKey(map.get("key"));
  return key && { key };
}

function readKeyless(field: Field): KeylessSign | undefined {
  // `keyless:` with nothing after it is the same tag as `keyless: {}`
  if (field.isNull) return {};
  const map = mapOf(field, "a mapping (cert_authority, log, identity_token)");
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(["cert_authority", "log", "identity_token"]);
  const out: KeylessSign = {};
  if (map.has("cert_authority")) out.cert_authority = readSignRef(map.get("cert_authority"));
  if (map.has("log")) out.log = readSignRef(map.get("log"));
  if (map.has("identity_token"))
    out.identity_token = readSignRef(map.get("identity_token"), { secret: true });
  return map.diagnostics.list.length > before ? undefined : out;
}

function readKey(field: Field): KeySign | undefined {
  if (field.isNull)
    return field.fail("key needs a reference: key: <ref> or key: {ref: <ref>}", ExitCode.Usage);
  if (isScalar(field.value)) {
    const ref = readSignRef(field);
    return ref && { ref };
  }
  const map = mapOf(field, "a reference or a mapping with ref");
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(["ref", "passphrase", "log"]);
  const refField = map.require("ref", ExitCode.Usage);
  const ref = refField && readSignRef(refField);
  const passphrase = map.has("passphrase") ? readSignRef(map.get("passphrase"), { secret: true }) : undefined;
  const log = map.has("log") ? readSignRef(map.get("log")) : undefined;
  if (map.diagnostics.list.length > before || !ref) return undefined;
  return { ref, ...(passphrase ? { passphrase } : {}), ...(log ? { log } : {}) };
}

/** The field as a mapping, or a data error that does not show the value. */
function mapOf(field: Field, expected: string): MapField | undefined {
  if (!isMap(field.value)) return field.fail(`expected ${expected}`);
  return new MapField(field.source, field.diagnostics, field.node, field.path, field.anchor);
}
