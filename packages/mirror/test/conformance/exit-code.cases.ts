import type { ConformanceCase } from "../support/spec-case.js";
import { spec } from "../support/spec-case.js";

/*
 * Several problems in one spec: every one is reported, in file order; a usage problem (64)
 * anywhere decides the exit code over data problems (65), wherever it stands in the file.
 */
export const cases: ConformanceCase[] = [
  {
    rule: "exit code: a secret literal in sign after a key typo exits 64, both reported in file order",
    yaml: spec({ sign: { key: { ref: "file://k.pem", passphrase: "s3cr3t-value" } } }).replace(
      "sign:",
      "cascad: true\nsign:",
    ),
    exit: 64,
    path: "sign.key.passphrase",
    message: /never written in the spec/,
    problems: ["cascad", "sign.key.passphrase"],
  },
  {
    rule: "exit code: a usage problem in the middle wins over data problems around it",
    yaml: spec({
      cascade: "sometimes",
      notify: { chat: { webhook_secret: "https://discord.com/api/webhooks/1/x" } },
      build_timestamp: "weekly",
    }),
    exit: 64,
    path: "notify.chat.webhook_secret",
    problems: ["cascade", "notify.chat.webhook_secret", "build_timestamp"],
  },
  {
    rule: "exit code: data problems only exit 65, the first one deciding",
    yaml: spec({ cascade: "sometimes", build_timestamp: "weekly" }),
    exit: 65,
    path: "cascade",
    problems: ["cascade", "build_timestamp"],
  },
];
