import { Command } from "@commander-js/extra-typings";
import { pipelineAnnounceCommand } from "./announce.js";
import { pipelineCascadeCommand } from "./cascade.js";
import { pipelineDescribeCommand } from "./describe.js";
import { pipelineGenerateCommand } from "./generate.js";
import { pipelineNotifyCommand } from "./notify.js";
import { pipelinePatchCommand } from "./patch.js";
import { pipelinePlanCommand } from "./plan.js";
import { pipelinePrepareCommand } from "./prepare.js";
import { pipelinePushCommand } from "./push.js";
import { pipelineRunCommand } from "./run.js";
import { pipelineSignCommand } from "./sign.js";
import { pipelineTestCommand } from "./test.js";

/** `pkg-mirror package pipeline`: the mirror's CI steps, one subcommand each. */
export function pipelineCommand() {
  return new Command("pipeline")
    .description("The steps of the mirror's generated CI, one subcommand each.")
    .addCommand(pipelinePlanCommand())
    .addCommand(pipelinePrepareCommand())
    .addCommand(pipelineTestCommand())
    .addCommand(pipelinePushCommand())
    .addCommand(pipelineAnnounceCommand())
    .addCommand(pipelineDescribeCommand())
    .addCommand(pipelinePatchCommand())
    .addCommand(pipelineCascadeCommand())
    .addCommand(pipelineNotifyCommand())
    .addCommand(pipelineRunCommand())
    .addCommand(pipelineSignCommand())
    .addCommand(pipelineGenerateCommand());
}
