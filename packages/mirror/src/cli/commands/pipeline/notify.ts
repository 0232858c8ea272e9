import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { CHAT_HOOK_ENV, CHAT_USER_ENV, runNotify } from "../../../pipeline/notify/notify.js";
import { formatDiagnostic } from "../../../spec/diagnostics.js";
import { loadMirrorSpec } from "../../../spec/loader.js";
import type { NotifySpec } from "../../../spec/notify.js";

export function pipelineNotifyCommand() {
  return new Command("notify")
    .description(
      "Tell the chat what a pipeline run did: one message per version published, partial or failed, from run-summary.json, through the webhook in PKG_MIRROR_CHAT_HOOK.",
    )
    .requiredOption("--run-summary <file>", "the run-summary.json the push step wrote")
    .option("--spec <file>", "the spec: its notify.chat block names the secret and the user to mention")
    .option("--format <format>", "output: text or json (the bodies sent)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Environment: ${CHAT_HOOK_ENV} holds the webhook URL (only there: never an argument, never
printed; needed only when there is something to send); ${CHAT_USER_ENV} is the user to
mention (17 to 20 digits), else the spec's notify.chat.user_id.

Messages: one per version published (green), partial (yellow) or failed (red), oldest first,
each with one embed: title "<target>: <version> <status>" linking to the run, a Platforms row
per platform with its chip (🟢 pushed, 🔴 test or push failure, 🚫 bundle or JUnit never
arrived, 🔒 excluded with its reason), the failed tests named, and on the first message the
Index row with the announce outcome (its chip says a skipped, failed or interrupted announce).
Versions that already existed get none. Silent when nothing was published or failed, unless
the announce failed, was interrupted or was skipped for want of a credential (one message of
its own). The user is mentioned on partial and failed versions only; nothing else can ping.
Messages go 750 ms apart; a 429 waits its retry_after (at most 60 s, 3 retries).
--format json prints {"sent": N, "messages": [...]} or {"sent": 0, "reason": "nothing to report"}.

Exit codes: 0 sent or nothing to send; 64 usage (${CHAT_HOOK_ENV} unset with something to
send, a malformed ${CHAT_USER_ENV}); 65 a run summary that is not JSON, not its shape or not
schema_version 1, or a bad spec; 69 the chat service failed (5xx, network, still rate limited,
any other answer); 77 the webhook was rejected (401/403: check the secret).`,
    )
    .action(async (options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      let notify: NotifySpec | undefined;
      if (options.spec !== undefined) {
        const loaded = await loadMirrorSpec(options.spec);
        for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
        notify = loaded.spec.notify;
      }
      const env = process.env;
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      try {
        const report = await runNotify({ summaryFile: options.runSummary, env, notify, http, log });
        if (options.format === "json") printJson(report);
        else if (report.sent === 0) log.info("nothing to report: no version was published or failed");
      } finally {
        await http.close();
      }
    });
}
