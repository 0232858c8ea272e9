import { ExitCode } from "@pkg/common";
import { libcOf, parsePlatformKey } from "@pkg/package";
import type { WheelTarget } from "../../python/wheel-select.js";
import type { Python } from "../../spec/python.js";
import { defaultWheelFilter } from "../../spec/wheels.js";

/** The wheel-selection target of one `wheels` key: its os/arch/libc, its filter, `python.version`/`abi`/`lock.extras`. */
export function wheelTargetOf(
  key: string,
  filter: readonly string[] | undefined,
  python: Python,
): WheelTarget {
  const parsed = parsePlatformKey(key, ExitCode.Data);
  const libc = libcOf(parsed);
  return {
    key,
    os: parsed.os,
    arch: parsed.architecture,
    ...(libc === undefined ? {} : { libc }),
    filter: filter ?? defaultWheelFilter(parsed) ?? ["any"],
    pythonVersion: python.version,
    abi: python.abi,
    extras: python.lock.extras,
  };
}
