import { expect } from "vitest";
import { type ConformanceCase, type SpecObject, spec } from "../support/spec-case.js";

type Json = Exclude<SpecObject[string], undefined>;

function signOf(s: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return s.sign as Record<string, Record<string, unknown>>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A refusal whose messages must never contain `secret` (the offending value). */
export interface SecretRefusal {
  rule: string;
  sign: Json;
  exit: 64 | 65;
  path: string;
  message: RegExp;
  secret: string;
}

const PEM =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
const TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJl";

/** Every refusal of a value under `sign`; each also proves the value stays out of the message. */
export const secretRefusals: SecretRefusal[] = [
  {
    rule: "sign: null is refused",
    sign: null,
    exit: 64,
    path: "sign",
    message: /exactly one mode/,
    secret: "null",
  },
  {
    rule: "sign: a bare string is refused",
    sign: "keyless-mode-please",
    exit: 64,
    path: "sign",
    message: /exactly one mode/,
    secret: "keyless-mode-please",
  },
  {
    rule: "sign: true is refused (bare sign)",
    sign: true,
    exit: 64,
    path: "sign",
    message: /exactly one mode/,
    secret: "true",
  },
  {
    rule: "sign: {} has no mode tag and is refused",
    sign: {},
    exit: 64,
    path: "sign",
    message: /exactly one mode/,
    secret: "{}",
  },
  {
    rule: "sign: keyless and key together are refused",
    sign: { keyless: {}, key: "cosign.key.secret-path" },
    exit: 64,
    path: "sign",
    message: /not both/,
    secret: "cosign.key.secret-path",
  },
  {
    rule: "sign.key: {} is refused",
    sign: { key: {} },
    exit: 64,
    path: "sign.key",
    message: /missing required key "ref"/,
    secret: "{}",
  },
  {
    rule: "sign.key: a key map without ref is refused",
    sign: { key: { passphrase: "env://KEY_PASS_X" } },
    exit: 64,
    path: "sign.key",
    message: /missing required key "ref"/,
    secret: "KEY_PASS_X",
  },
  {
    rule: "sign.key: null is refused",
    sign: { key: null },
    exit: 64,
    path: "sign.key",
    message: /needs a reference/,
    secret: "null",
  },
  {
    rule: "sign.key: an empty ref is refused",
    sign: { key: "" },
    exit: 64,
    path: "sign.key",
    message: /empty/,
    secret: '""',
  },
  {
    rule: "sign.key: a blank ref is refused",
    sign: { key: "   " },
    exit: 64,
    path: "sign.key",
    message: /empty/,
    secret: "   ",
  },
  {
    rule: "sign.key: pasted key material (BEGIN) is refused",
    sign: { key: PEM },
    exit: 64,
    path: "sign.key",
    message: /key material/,
    secret: "b3BlbnNzaC1rZXktdjEAAAAA",
  },
  {
    rule: "sign.key.ref: pasted key material (BEGIN) is refused",
    sign: { key: { ref: PEM } },
    exit: 64,
    path: "sign.key.ref",
    message: /key material/,
    secret: "b3BlbnNzaC1rZXktdjEAAAAA",
  },
  {
    rule: "sign.keyless.cert_authority: an empty ref is refused",
    sign: { keyless: { cert_authority: "" } },
    exit: 64,
    path: "sign.keyless.cert_authority",
    message: /empty/,
    secret: '""',
  },
  {
    rule: "sign.key.log: an empty ref is refused",
    sign: { key: { ref: "cosign.key", log: "" } },
    exit: 64,
    path: "sign.key.log",
    message: /empty/,
    secret: '""',
  },
  {
    rule: "sign.keyless.log: a ref holding key material (BEGIN) is refused, whatever the field",
    sign: { keyless: { log: PEM } },
    exit: 64,
    path: "sign.keyless.log",
    message: /key material/,
    secret: "b3BlbnNzaC1rZXktdjEAAAAA",
  },
  {
    rule: "sign.key.passphrase: key material pasted as the passphrase is refused without repeating it",
    sign: { key: { ref: "cosign.key", passphrase: PEM } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /key material/,
    secret: "b3BlbnNzaC1rZXktdjEAAAAA",
  },
  {
    rule: "sign.key.passphrase: a literal passphrase is refused",
    sign: { key: { ref: "cosign.key", passphrase: "hunter2-correct-horse" } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /env:\/\/NAME or file:\/\/PATH/,
    secret: "hunter2-correct-horse",
  },
  {
    rule: "sign.key.passphrase: an unquoted numeric passphrase is a literal too",
    sign: { key: { ref: "cosign.key", passphrase: 83716253 } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /never written in the spec/,
    secret: "83716253",
  },
  {
    rule: "sign.key.passphrase: a KMS URI is not env:// or file:// and is refused",
    sign: { key: { ref: "cosign.key", passphrase: "awskms://alias/secret-pass" } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /env:\/\/NAME or file:\/\/PATH/,
    secret: "alias/secret-pass",
  },
  {
    rule: "sign.keyless.identity_token: a literal token is refused",
    sign: { keyless: { identity_token: TOKEN } },
    exit: 64,
    path: "sign.keyless.identity_token",
    message: /never written in the spec/,
    secret: TOKEN,
  },
  {
    rule: "sign: an env:// name in lowercase is refused",
    sign: { key: "env://signing_key_lower" },
    exit: 64,
    path: "sign.key",
    message: /not an environment variable name/,
    secret: "signing_key_lower",
  },
  {
    rule: "sign: an env:// name with a dash is refused",
    sign: { key: { ref: "cosign.key", passphrase: "env://KEY-PASS-DASH" } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /not an environment variable name/,
    secret: "KEY-PASS-DASH",
  },
  {
    rule: "sign: an empty env:// name is refused",
    sign: { keyless: { log: "env://" } },
    exit: 64,
    path: "sign.keyless.log",
    message: /not an environment variable name/,
    secret: '"env://"',
  },
  {
    rule: "sign: env://PKG_IDENTITY_TOKEN is refused (the package tool strips it)",
    sign: { keyless: { identity_token: "env://PKG_IDENTITY_TOKEN" } },
    exit: 64,
    path: "sign.keyless.identity_token",
    message: /strips .*use a different name/,
    secret: "PKG_IDENTITY_TOKEN",
  },
  {
    rule: "sign: env://PKG_KEY_PASSWORD is refused",
    sign: { key: { ref: "cosign.key", passphrase: "env://PKG_KEY_PASSWORD" } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /use a different name/,
    secret: "PKG_KEY_PASSWORD",
  },
  {
    rule: "sign: env://PKG_SIGNING_KEY is refused",
    sign: { key: "env://PKG_SIGNING_KEY" },
    exit: 64,
    path: "sign.key",
    message: /use a different name/,
    secret: "PKG_SIGNING_KEY",
  },
  {
    rule: "sign: an empty file:// path is refused",
    sign: { key: "file://" },
    exit: 64,
    path: "sign.key",
    message: /file:\/\/ path is empty/,
    secret: '"file://"',
  },
  {
    rule: "sign: an empty file:// path on a passphrase is refused",
    sign: { key: { ref: "cosign.key", passphrase: "file://" } },
    exit: 64,
    path: "sign.key.passphrase",
    message: /file:\/\/ path is empty/,
    secret: '"file://"',
  },
  {
    rule: "sign.keyless.identity_token: an empty file:// path is refused",
    sign: { keyless: { identity_token: "file://" } },
    exit: 64,
    path: "sign.keyless.identity_token",
    message: /file:\/\/ path is empty/,
    secret: '"file://"',
  },
  {
    rule: "sign.keyless.identity_token: a key-management-service URI is not env:// or file:// and is refused",
    sign: { keyless: { identity_token: "hashivault://oidc-token" } },
    exit: 64,
    path: "sign.keyless.identity_token",
    message: /env:\/\/NAME or file:\/\/PATH/,
    secret: "oidc-token",
  },
  {
    rule: "sign: an unknown key under sign is a schema error (65) naming the closest",
    sign: { keyless: {}, keyles: {} },
    exit: 65,
    path: "sign.keyles",
    message: /did you mean "keyless"/,
    secret: "{}",
  },
  {
    rule: "sign: a typo for the only mode leaves no mode: the usage refusal (64) decides",
    sign: { keyles: {} },
    exit: 64,
    path: "sign",
    message: /exactly one mode/,
    secret: "{}",
  },
  {
    rule: "sign.keyless: an unknown key is a schema error",
    sign: { keyless: { fulcio_url: "https://fulcio.internal.example" } },
    exit: 65,
    path: "sign.keyless.fulcio_url",
    message: /unknown key "fulcio_url"/,
    secret: "fulcio.internal.example",
  },
  {
    rule: "sign.key: an unknown key in the map form is a schema error",
    sign: { key: { ref: "cosign.key", password: "hunter2-in-wrong-key" } },
    exit: 65,
    path: "sign.key.password",
    message: /unknown key "password"/,
    secret: "hunter2-in-wrong-key",
  },
  {
    rule: "sign.keyless: a string instead of a mapping is refused without repeating it",
    sign: { keyless: "public-good-instance-token" },
    exit: 65,
    path: "sign.keyless",
    message: /expected a mapping/,
    secret: "public-good-instance-token",
  },
  {
    rule: "sign.key: a list is refused without repeating it",
    sign: { key: ["first-secret-entry"] },
    exit: 65,
    path: "sign.key",
    message: /expected a reference or a mapping/,
    secret: "first-secret-entry",
  },
  {
    rule: "sign.keyless.log: a mapping is not a reference",
    sign: { keyless: { log: { url: "https://rekor.internal.example" } } },
    exit: 65,
    path: "sign.keyless.log",
    message: /expected a reference/,
    secret: "rekor.internal.example",
  },
];

/** The message must match `pattern` and must not contain `secret`. */
function without(pattern: RegExp, secret: string): RegExp {
  return new RegExp(`^(?![\\s\\S]*${escapeRegex(secret)})(?=[\\s\\S]*${pattern.source})`);
}

const refused: ConformanceCase[] = secretRefusals.map((r) => ({
  rule: r.rule,
  yaml: spec({ sign: r.sign }),
  exit: r.exit,
  path: r.path,
  message: without(r.message, r.secret),
}));

const accepted: ConformanceCase[] = [
  {
    rule: "sign.keyless: {} is the public infrastructure (cert_authority and log unset: the tool's public defaults)",
    yaml: spec({ sign: { keyless: {} } }),
    exit: 0,
    check: (s) => expect(s.sign).toEqual({ keyless: {} }),
  },
  {
    rule: "sign.keyless: the tag with nothing after it equals {}",
    yaml: `${spec()}sign:\n  keyless:\n`,
    exit: 0,
    check: (s) => expect(s.sign).toEqual({ keyless: {} }),
  },
  {
    rule: "sign.keyless: literal URLs, env:// and file:// refs",
    yaml: spec({
      sign: {
        keyless: {
          cert_authority: "https://fulcio.internal.example",
          log: "env://REKOR_URL",
          identity_token: "file:///run/secrets/oidc",
        },
      },
    }),
    exit: 0,
    check: (s) =>
      expect(signOf(s).keyless).toEqual({
        cert_authority: { form: "literal", text: "https://fulcio.internal.example" },
        log: { form: "env", text: "env://REKOR_URL", name: "REKOR_URL" },
        identity_token: { form: "file", text: "file:///run/secrets/oidc", path: "/run/secrets/oidc" },
      }),
  },
  {
    rule: "sign.keyless.identity_token: env:// is accepted",
    yaml: spec({ sign: { keyless: { identity_token: "env://CI_OIDC_TOKEN" } } }),
    exit: 0,
    check: (s) =>
      expect(signOf(s).keyless?.identity_token).toMatchObject({ form: "env", name: "CI_OIDC_TOKEN" }),
  },
  {
    rule: "sign.key: the string form is the key reference, read as {ref}",
    yaml: spec({ sign: { key: "keys/cosign.key" } }),
    exit: 0,
    check: (s) => expect(s.sign).toEqual({ key: { ref: { form: "literal", text: "keys/cosign.key" } } }),
  },
  {
    rule: "sign.key: env:// and file:// references",
    yaml: spec({ sign: { key: "env://COSIGN_PRIVATE_KEY" } }),
    exit: 0,
    check: (s) =>
      expect(signOf(s).key?.ref).toEqual({
        form: "env",
        text: "env://COSIGN_PRIVATE_KEY",
        name: "COSIGN_PRIVATE_KEY",
      }),
  },
  {
    rule: "sign.key: the map form with ref, passphrase and log",
    yaml: spec({
      sign: {
        key: {
          ref: "file://keys/cosign.key",
          passphrase: "env://COSIGN_PASSWORD",
          log: "https://rekor.internal.example",
        },
      },
    }),
    exit: 0,
    check: (s) =>
      expect(signOf(s).key).toEqual({
        ref: { form: "file", text: "file://keys/cosign.key", path: "keys/cosign.key" },
        passphrase: { form: "env", text: "env://COSIGN_PASSWORD", name: "COSIGN_PASSWORD" },
        log: { form: "literal", text: "https://rekor.internal.example" },
      }),
  },
  {
    rule: "sign.key.passphrase: file:// is accepted; without log nothing is uploaded (log stays unset)",
    yaml: spec({ sign: { key: { ref: "cosign.key", passphrase: "file:///run/secrets/pass" } } }),
    exit: 0,
    check: (s) => expect(signOf(s).key?.log).toBeUndefined(),
  },
  {
    rule: "sign: an env:// name may start with an underscore",
    yaml: spec({ sign: { key: "env://_SIGNING_KEY_2" } }),
    exit: 0,
  },
  {
    rule: "sign.key: KMS schemes pass through at load (they fail at use with 82)",
    yaml: spec({ sign: { key: "awskms://alias/pkg-signing" } }),
    exit: 0,
    check: (s) =>
      expect(signOf(s).key?.ref).toEqual({
        form: "kms",
        text: "awskms://alias/pkg-signing",
        scheme: "awskms",
      }),
  },
  ...[
    "gcpkms://projects/p/locations/l/keyRings/r/cryptoKeys/k",
    "azurekms://vault.example/key",
    "hashivault://transit-key",
    "k8s://ns/secret",
  ].map(
    (ref): ConformanceCase => ({
      rule: `sign.key.ref: ${ref.split(":")[0]}:// passes through at load`,
      yaml: spec({ sign: { key: { ref } } }),
      exit: 0,
      check: (s) => expect(signOf(s).key?.ref).toMatchObject({ form: "kms", text: ref }),
    }),
  ),
];

export const cases: ConformanceCase[] = [...accepted, ...refused];
