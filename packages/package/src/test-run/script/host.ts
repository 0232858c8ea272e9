import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import {
  asInt,
  asString,
  asStringDict,
  EnumValue,
  enumType,
  hostFunction,
  List,
  type Namespace,
  namespace,
  optional,
  StarlarkError,
  Struct,
  Tuple,
  typeName,
  type Value,
} from "@pkg/starlark";
import type { EnvOs } from "../../exec/compose-env.js";
import type { PlatformKey } from "../../platform/key.js";
import type { BlockingRunner } from "../blocking-run.js";
import type { CapturedRun } from "../capture.js";
import { type ScriptRoots, scriptPath, slashed } from "./paths.js";
import { runResult } from "./run-result.js";
import { HOST_FAILED, SCRIPT_ERROR, TIMEOUT } from "./tags.js";

/** Each `pkg.run` is killed after this long (status timeout). */
export const RUN_DEADLINE_MS = 300_000;
/** `pkg.read_file` reads at most this much unless told otherwise. */
const READ_LIMIT = 1024 * 1024;

/** What the `pkg` namespace works with. */
export interface HostContext {
  roots: ScriptRoots;
  /** The test's environment: the package's consumer environment and the PKG_* variables. */
  env: Record<string, string>;
  packageDirs: string[];
  hostPath: string | undefined;
  os: EnvOs;
  platform: PlatformKey;
  runner: BlockingRunner;
  /** Told each run as it ends (the report keeps the last). */
  onRun: (run: CapturedRun) => void;
  runDeadlineMs?: number;
}

const misuse = (message: string) => new StarlarkError(message, { tag: SCRIPT_ERROR });
const failed = (message: string) => new StarlarkError(message, { tag: HOST_FAILED });

/** Variables a script may not set for `pkg.run`: they decide what runs and with which credentials. */
function isReserved(name: string): boolean {
  const upper = name.toUpperCase();
  return upper === "PATH" || upper === "PKG_HOME" || upper.startsWith("PKG_AUTH_");
}

/** Credentials are never handed to a script. */
const isHidden = (name: string) => name.toUpperCase().startsWith("PKG_AUTH_");

export const OS = enumType("os", { Linux: "linux", Darwin: "darwin", Windows: "windows" });
export const ARCH = enumType("arch", { Amd64: "amd64", Arm64: "arm64" });

function member(known: Record<string, EnumValue>, type: string, value: string): EnumValue {
  const found = Object.values(known).find((constant) => constant.value === value);
  return found ?? new EnumValue(type, value.charAt(0).toUpperCase() + value.slice(1), value);
}

/** `pkg.target_platform`: the platform tested, `os` and `arch` as the `pkg.os` / `pkg.arch` constants. */
function targetPlatform(platform: PlatformKey): Struct {
  const text = `${platform.os}/${platform.architecture}`;
  return new Struct(
    "platform",
    {
      os: member(OS, "os", platform.os),
      arch: member(ARCH, "arch", platform.architecture),
      is_any: false,
      key: platform.key,
    },
    { str: () => text },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `pkg` namespace a test script sees. */
export function pkgNamespace(context: HostContext): Namespace {
  const { roots } = context;
  return namespace("pkg", {
    run: hostFunction(
      "run(prog, *args, env=None, cwd=None, stdin=None)",
      ({ prog, args, env, cwd, stdin }) => {
        const argv = commandLine(prog ?? null, (args as Tuple).elems);
        const [name, ...rest] = argv;
        if (name === undefined || name === "") throw misuse("pkg.run: the program is empty");
        const overlay = optional(env) === undefined ? {} : asStringDict(env, "pkg.run: env");
        const reserved = Object.keys(overlay).filter(isReserved);
        if (reserved.length > 0) throw misuse(`pkg.run: env may not set ${reserved.join(", ")}`);
        const dir =
          optional(cwd) === undefined
            ? roots.scratch
            : scriptPath(asString(cwd, "pkg.run: cwd"), roots, "read", "pkg.run: cwd");
        const input = optional(stdin) === undefined ? undefined : asString(stdin, "pkg.run: stdin");
        let run: CapturedRun;
        try {
          run = context.runner.run({
            prog: name,
            args: rest,
            packageDirs: context.packageDirs,
            hostPath: context.hostPath,
            os: context.os,
            env: { ...context.env, ...overlay },
            cwd: dir,
            ...(input === undefined ? {} : { stdin: input }),
            timeoutMs: context.runDeadlineMs ?? RUN_DEADLINE_MS,
          });
        } catch (error) {
          const code = (error as { exitCode?: number }).exitCode;
          const message = `pkg.run: ${errorText(error)}`;
          throw code === 65 ? misuse(message) : failed(message);
        }
        context.onRun(run);
        if (run.timed_out) {
          const seconds = (context.runDeadlineMs ?? RUN_DEADLINE_MS) / 1000;
          throw new StarlarkError(`pkg.run: ${name} was killed after ${seconds} s`, { tag: TIMEOUT });
        }
        return runResult(run);
      },
    ),
    env: hostFunction("env(name)", ({ name }) => {
      const key = asString(name, "pkg.env: name");
      return isHidden(key) ? null : (context.env[key] ?? null);
    }),
    read_file: hostFunction("read_file(path, *, max_bytes=1048576)", ({ path, max_bytes }) => {
      const file = scriptPath(asString(path, "pkg.read_file: path"), roots, "read", "pkg.read_file");
      const limit = asInt(max_bytes ?? READ_LIMIT, "pkg.read_file: max_bytes");
      let bytes: Buffer;
      try {
        const size = statSync(file).size;
        if (size > limit)
          throw failed(`pkg.read_file: ${slashed(file)} is ${size} bytes, more than max_bytes=${limit}`);
        bytes = readFileSync(file);
      } catch (error) {
        if (error instanceof StarlarkError) throw error;
        throw failed(`pkg.read_file: ${errorText(error)}`);
      }
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw failed(`pkg.read_file: ${slashed(file)} is not UTF-8 text`);
      }
    }),
    write_file: hostFunction("write_file(path, content)", ({ path, content }) => {
      const file = scriptPath(asString(path, "pkg.write_file: path"), roots, "write", "pkg.write_file");
      const text = asString(content, "pkg.write_file: content");
      try {
        writeFileSync(file, text);
      } catch (error) {
        throw failed(`pkg.write_file: ${errorText(error)}`);
      }
      return null;
    }),
    exists: hostFunction("exists(path)", ({ path }) =>
      existsSync(scriptPath(asString(path, "pkg.exists: path"), roots, "read", "pkg.exists")),
    ),
    mkdir: hostFunction("mkdir(path)", ({ path }) => {
      const dir = scriptPath(asString(path, "pkg.mkdir: path"), roots, "write", "pkg.mkdir");
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw failed(`pkg.mkdir: ${errorText(error)}`);
      }
      return null;
    }),
    target_platform: targetPlatform(context.platform),
    package_root: slashed(roots.package),
    scratch_root: slashed(roots.scratch),
    os: namespace("os", OS),
    arch: namespace("arch", ARCH),
  });
}

/** `pkg.run("tool", "--version")` or `pkg.run(["tool", "--version"])`: the command line as strings. */
function commandLine(prog: Value, args: readonly Value[]): string[] {
  if (prog instanceof List || prog instanceof Tuple) {
    if (args.length > 0)
      throw misuse("pkg.run: give the command as one list or as separate arguments, not both");
    return prog.elems.map((e, i) => word(e, `pkg.run: element #${i}`));
  }
  return [word(prog, "pkg.run: prog"), ...args.map((a, i) => word(a, `pkg.run: argument #${i + 1}`))];
}

function word(value: Value, what: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  throw misuse(`${what} is ${typeName(value)}, want a string`);
}
