import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { TOOL_VERSION } from "../version-info.js";
import { announceCommand } from "./commands/announce.js";
import { cascadeCommand } from "./commands/cascade.js";
import { createCommand } from "./commands/create.js";
import { describeCommand } from "./commands/describe.js";
import { execCommand } from "./commands/exec.js";
import { pullCommand } from "./commands/pull.js";
import { pushCommand } from "./commands/push.js";
import { signCommand } from "./commands/sign.js";
import { tagsCommand } from "./commands/tags.js";
import { testCommand } from "./commands/test.js";
import { verifyCommand } from "./commands/verify.js";

export function buildProgram(): CommandUnknownOpts {
  const program = new Command("pkg")
    .description("Create, publish, fetch and run pkg packages: tool releases as OCI artifacts.")
    .version(TOOL_VERSION)
    .addHelpText(
      "after",
      `
Registry credentials come from PKG_AUTH_<HOST>_TYPE/_USER/_TOKEN, then ~/.netrc (or $NETRC),
then Docker's config.json; never from the command line. Signing secrets likewise: PKG_SIGNING_KEY
(or any variable named with --key env://NAME), PKG_KEY_PASSWORD, PKG_IDENTITY_TOKEN; the commands
pkg runs never see these three.
Exit codes: 0 ok, 1 failed, 64 usage, 65 bad input, 69 registry unavailable,
74 I/O error, 75 transient registry failure (retry), 78 a signing secret resolves to nothing,
80 authentication rejected, 82 unsupported (a key-management-service key);
pkg exec ends with its command's status once the command runs.`,
    );
  const pkg = new Command("package").description("Work with packages.");
  pkg.addCommand(createCommand());
  pkg.addCommand(pushCommand());
  pkg.addCommand(describeCommand());
  pkg.addCommand(pullCommand());
  pkg.addCommand(tagsCommand());
  pkg.addCommand(testCommand());
  pkg.addCommand(announceCommand());
  pkg.addCommand(signCommand());
  pkg.addCommand(verifyCommand());
  pkg.addCommand(cascadeCommand());
  program.addCommand(pkg);
  program.addCommand(execCommand());
  return program;
}
