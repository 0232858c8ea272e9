import { Command } from "@commander-js/extra-typings";
import type { LazyGroup } from "@pkg/common";

/**
 * `pkg-mirror package pipeline`: the mirror's CI steps, one subcommand each, each module
 * imported only when the command line reaches it.
 */
export const pipelineTree: LazyGroup = {
  command: () =>
    new Command("pipeline").description("The steps of the mirror's generated CI, one subcommand each."),
  children: {
    plan: async () => (await import("./plan.js")).pipelinePlanCommand(),
    prepare: async () => (await import("./prepare.js")).pipelinePrepareCommand(),
    test: async () => (await import("./test.js")).pipelineTestCommand(),
    push: async () => (await import("./push.js")).pipelinePushCommand(),
    announce: async () => (await import("./announce.js")).pipelineAnnounceCommand(),
    describe: async () => (await import("./describe.js")).pipelineDescribeCommand(),
    patch: async () => (await import("./patch.js")).pipelinePatchCommand(),
    cascade: async () => (await import("./cascade.js")).pipelineCascadeCommand(),
    notify: async () => (await import("./notify.js")).pipelineNotifyCommand(),
    run: async () => (await import("./run.js")).pipelineRunCommand(),
    sign: async () => (await import("./sign.js")).pipelineSignCommand(),
    generate: async () => (await import("./generate.js")).pipelineGenerateCommand(),
  },
};
