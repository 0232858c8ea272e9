import { readFile } from "node:fs/promises";
import { Command } from "@commander-js/extra-typings";
import { ExitCode, PkgError, parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import { parsePlatformKey } from "../../platform/key.js";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function testCommand() {
  let afterSeparator = 0;
  const command = new Command("test")
    .description(
      "Test a package as a CI test leg does: run a command (after --) or a Starlark script against a bundle or a published package, in a fresh scratch directory with the package's environment. Exit 0 passed, 1 failed, 64 usage, 65 script error.",
    )
    .argument(
      "[bundle]",
      "a bundle of pkg package create (*.tar.zst, *.tar.xz), or several before -- (the layers of one package, in order); or -i REFERENCE",
    )
    .argument(
      "[command...]",
      "after --: the command and its arguments, looked up in the package's directories before PATH",
    )
    .option(
      "-m, --metadata <file>",
      "the bundle's metadata.json (default: metadata.json beside the bundle, if there)",
    )
    .option(
      "-i, --identifier <reference>",
      "test a published package: REGISTRY/REPOSITORY:TAG or ...@sha256:...; with --layout, REPOSITORY[:TAG]",
    )
    .requiredOption(
      "-p, --platform <key>",
      "platform key of the leg, kept whole (+libc.* included): PKG_PLATFORM, pkg.target_platform, and the index entry of -i",
    )
    .option("--script <file>", "run a Starlark test script instead of a command; - reads it from stdin")
    .option(
      "--junit <file>",
      "add this test's case to a JUnit XML file (created when missing; needs --junit-name)",
    )
    .option("--junit-name <name>", "the test's name: the JUnit case's name and PKG_TEST_NAME")
    .option(
      "--junit-suite <name>",
      "the JUnit suite and classname (default: <version>.<platform slug>.<container id>)",
    )
    .option(
      "--junit-property <name=value>",
      "a property of the JUnit suite, e.g. ci.job.url=URL (repeatable)",
      collect,
    )
    .option("--pkg-version <version>", "PKG_VERSION (default: the version the tag of -i names)")
    .option("--image <image>", "PKG_IMAGE: the container image the leg runs in (default: none, a native leg)")
    .option(
      "--layout <dir>",
      "read the package of -i and every dependency from the OCI image layouts under DIR (DIR/<repository>) instead of registries",
    )
    .option("--offline", "use only the local package store for the package and its dependencies")
    .option(
      "--format <format>",
      "output: text or json (a report with status, assertion and the captured run)",
      parseFormat,
      "text" as const,
    )
    .addHelpText(
      "after",
      `
The test sees the package's consumer environment (as pkg exec gives it) and PKG_INSTALL_DIR,
PKG_VERSION, PKG_PLATFORM (the platform's slug), PKG_IMAGE and PKG_TEST_NAME. A command the
package ships but cannot run (bin/tool mode 0644) is exit 65, never the host's tool of the same
name. Scripts get pkg.run/env/read_file/write_file/exists/mkdir, pkg.target_platform,
pkg.package_root, pkg.scratch_root, pkg.os, pkg.arch and expect.ok/eq/ne/true/false/contains/
matches/fail; each pkg.run is killed after 300 s (status timeout), its output kept up to 10 MiB.

Examples:
  pkg package test out/tool.tar.zst -p linux/amd64 -- tool --version
  pkg package test -i ghcr.io/acme/tool:1.2.3 -p linux/amd64+libc.musl --script tests/smoke.star
  printf 'expect.ok(pkg.run("tool", "--help"))' | pkg package test out/tool.tar.zst -p linux/amd64 --script - \\
    --junit junit.xml --junit-name help`,
    )
    .action(async (bundleArg, commandArgs, options) => {
      // operands before -- are the bundles (one package's layers); those after it, the command
      // (commander hands both over as operands)
      const operands = [...(bundleArg === undefined ? [] : [bundleArg]), ...commandArgs];
      const argv = operands.slice(operands.length - afterSeparator);
      const bundles = operands.slice(0, operands.length - afterSeparator);
      const bundle = bundles[0];
      if ((bundle === undefined) === (options.identifier === undefined))
        throw usageError("name what to test: a BUNDLE file, or -i REFERENCE (not both)");
      if (options.metadata !== undefined && bundle === undefined)
        throw usageError("--metadata goes with a BUNDLE, not with -i");
      if ((options.script === undefined) === (argv.length === 0))
        throw usageError("name what to run: a command after --, or --script FILE (or - for stdin), not both");
      if (options.junit !== undefined && options.junitName === undefined)
        throw usageError("--junit needs --junit-name: the name of the test case to write");
      const platform = parsePlatformKey(options.platform);
      const properties = (options.junitProperty ?? []).map(parseProperty);
      const form =
        options.script === undefined ? { kind: "command" as const, argv } : await readScript(options.script);

      const log = stderrLogger({ quiet: options.format === "json" });
      const { runPackageTest } = await import("../../test-run/run-test.js");
      const { exitCodeOf, summaryLine } = await import("../../test-run/report.js");
      const report = await runPackageTest({
        subject:
          bundle === undefined
            ? { kind: "reference", identifier: options.identifier ?? "" }
            : {
                kind: "bundle",
                bundles: [bundle, ...bundles.slice(1)],
                ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
              },
        form,
        platform,
        name: options.junitName ?? "",
        ...(options.pkgVersion === undefined ? {} : { version: options.pkgVersion }),
        image: options.image ?? "",
        source:
          options.layout === undefined ? { kind: "registry" } : { kind: "layout", root: options.layout },
        offline: options.offline === true,
        ...(options.junit === undefined
          ? {}
          : {
              junit: {
                file: options.junit,
                ...(options.junitSuite === undefined ? {} : { suite: options.junitSuite }),
                properties,
              },
            }),
        echo: options.format !== "json",
        log,
      });
      if (options.format === "json") printJson(report);
      if (report.status !== "passed") throw new PkgError(exitCodeOf(report.status), summaryLine(report));
      log.info(summaryLine(report));
    });
  // commander drops the `--` before handing operands over: count what follows it in this command's arguments
  const parseOptions = command.parseOptions.bind(command);
  command.parseOptions = (args: string[]) => {
    afterSeparator = countAfterSeparator(args, command.options);
    return parseOptions(args);
  };
  return command;
}

/** How many arguments follow the first `--` that is not an option's value. */
function countAfterSeparator(
  args: readonly string[],
  options: ReadonlyArray<{ short?: string; long?: string; required: boolean; optional: boolean }>,
): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return args.length - i - 1;
    const option = options.find((o) => o.long === arg || o.short === arg);
    if (option !== undefined && (option.required || option.optional)) i++;
  }
  return 0;
}

function parseProperty(text: string): { name: string; value: string } {
  const eq = text.indexOf("=");
  if (eq <= 0) throw usageError(`--junit-property ${JSON.stringify(text)}: want NAME=VALUE`);
  return { name: text.slice(0, eq), value: text.slice(eq + 1) };
}

async function readScript(
  path: string,
): Promise<{ kind: "script"; source: string; file: string } | { kind: "script_inline"; source: string }> {
  if (path === "-") {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return { kind: "script_inline", source: Buffer.concat(chunks).toString("utf8") };
    } catch (error) {
      throw new PkgError(
        ExitCode.IoError,
        `--script -: cannot read stdin: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const source = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "EISDIR" || error.code === "ENOTDIR")
      throw usageError(`--script ${path}: no such script file`);
    throw error;
  });
  return { kind: "script", source, file: path };
}
