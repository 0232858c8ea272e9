import { createHash } from "node:crypto";
import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import type { LockedPackage, Pylock } from "./pylock.js";
import {
  bestWheel,
  checkLockedHash,
  checkWheelAbi,
  platformTagRuns,
  selectWheels,
  type WheelTarget,
} from "./wheel-select.js";

const file = (name: string) => ({ name, url: `https://f.example/${name}`, hashes: { sha256: "00" } });
const pkg = (name: string, wheels: string[], marker?: string): LockedPackage => ({
  name,
  version: "1.0",
  wheels: wheels.map(file),
  ...(marker === undefined ? {} : { marker }),
});

const base = { pythonVersion: "3.11.7", abi: "cp311" };
const glibc: WheelTarget = {
  ...base,
  key: "linux/amd64+libc.glibc",
  os: "linux",
  arch: "amd64",
  libc: "glibc",
  filter: ["manylinux", "any"],
};
const musl: WheelTarget = {
  ...base,
  key: "linux/arm64+libc.musl",
  os: "linux",
  arch: "arm64",
  libc: "musl",
  filter: ["musllinux", "any"],
};
const plain: WheelTarget = { ...base, key: "linux/amd64", os: "linux", arch: "amd64", filter: ["any"] };
const mac: WheelTarget = {
  ...base,
  key: "darwin/arm64",
  os: "darwin",
  arch: "arm64",
  filter: ["macosx", "any"],
};
const win: WheelTarget = {
  ...base,
  key: "windows/amd64",
  os: "windows",
  arch: "amd64",
  filter: ["win", "any"],
};

describe("platformTagRuns", () => {
  it.each([
    ["any", plain, true],
    ["manylinux_2_17_x86_64", glibc, true],
    ["manylinux2014_x86_64", glibc, true],
    ["manylinux1_x86_64", glibc, true],
    ["manylinux_2_17_aarch64", glibc, false],
    ["musllinux_1_2_x86_64", glibc, false],
    ["musllinux_1_2_aarch64", musl, true],
    ["manylinux_2_17_aarch64", musl, false],
    ["linux_x86_64", glibc, true],
    ["manylinux_2_17_x86_64", plain, true],
    ["musllinux_1_1_x86_64", plain, true],
    ["macosx_11_0_arm64", mac, true],
    ["macosx_10_9_universal2", mac, true],
    ["macosx_10_9_x86_64", mac, false],
    ["win_amd64", win, true],
    ["win32", win, false],
  ] as const)("%s on %s: %s", (platform, target, runs) => {
    expect(platformTagRuns(platform, target)).toBe(runs);
  });
});

describe("bestWheel", () => {
  const rows: Array<[string, WheelTarget, string[], string | undefined]> = [
    // the filter's earlier prefix ranks higher than a better interpreter tag
    [
      "manylinux before any",
      glibc,
      ["a-1.0-py3-none-any.whl", "a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"],
      "a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
    ],
    // within one prefix: the interpreter's own ABI, then abi3
    [
      "cp311 before abi3",
      glibc,
      ["a-1.0-cp39-abi3-manylinux_2_17_x86_64.whl", "a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"],
      "a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
    ],
    [
      "abi3 of an older release",
      glibc,
      ["a-1.0-cp38-abi3-manylinux2014_x86_64.whl"],
      "a-1.0-cp38-abi3-manylinux2014_x86_64.whl",
    ],
    // tag compatibility first: another interpreter's ABI or another machine is never admitted
    ["cp312 wheel refused on 3.11", glibc, ["a-1.0-cp312-cp312-manylinux_2_17_x86_64.whl"], undefined],
    ["aarch64 wheel refused on amd64", glibc, ["a-1.0-cp311-cp311-manylinux_2_17_aarch64.whl"], undefined],
    // the filter: a plain linux key's default [any] admits pure wheels only
    [
      "plain key: compiled wheel filtered out",
      plain,
      ["a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"],
      undefined,
    ],
    [
      "plain key: the pure wheel",
      plain,
      ["a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", "a-1.0-py3-none-any.whl"],
      "a-1.0-py3-none-any.whl",
    ],
    [
      "plain key with a musllinux filter",
      { ...plain, filter: ["musllinux"] },
      ["a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", "a-1.0-cp311-cp311-musllinux_1_2_x86_64.whl"],
      "a-1.0-cp311-cp311-musllinux_1_2_x86_64.whl",
    ],
    // the filter never re-admits: a musllinux prefix on a glibc target admits nothing
    [
      "filter never re-admits",
      { ...glibc, filter: ["musllinux"] },
      ["a-1.0-cp311-cp311-musllinux_1_2_x86_64.whl"],
      undefined,
    ],
    [
      "musl key",
      musl,
      ["a-1.0-cp311-cp311-musllinux_1_2_aarch64.whl", "a-1.0-py3-none-any.whl"],
      "a-1.0-cp311-cp311-musllinux_1_2_aarch64.whl",
    ],
    [
      "macOS universal2",
      mac,
      ["a-1.0-cp311-cp311-macosx_10_9_universal2.whl"],
      "a-1.0-cp311-cp311-macosx_10_9_universal2.whl",
    ],
    [
      "windows",
      win,
      ["a-1.0-cp311-cp311-win32.whl", "a-1.0-cp311-cp311-win_amd64.whl"],
      "a-1.0-cp311-cp311-win_amd64.whl",
    ],
    ["a compressed tag set", plain, ["a-1.0-py2.py3-none-any.whl"], "a-1.0-py2.py3-none-any.whl"],
    [
      "ties: the lock's order",
      plain,
      ["a-1.0-1-py3-none-any.whl", "a-1.0-py3-none-any.whl"],
      "a-1.0-1-py3-none-any.whl",
    ],
  ];
  it.each(rows)("%s", (_rule, target, wheels, want) => {
    expect(bestWheel(pkg("a", wheels), target)?.name).toBe(want);
  });
});

describe("selectWheels", () => {
  const lock = (...packages: LockedPackage[]): Pylock => ({ lockVersion: "1.0", createdBy: "t", packages });

  it("skips packages whose marker does not hold on the target and keeps the lock's order", () => {
    const selected = selectWheels(
      lock(
        pkg("app", ["app-1.0-py3-none-any.whl"]),
        pkg("winonly", ["winonly-1.0-py3-none-any.whl"], 'sys_platform == "win32"'),
        pkg("fast", ["fast-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", "fast-1.0-py3-none-any.whl"]),
        pkg("extra", ["extra-1.0-py3-none-any.whl"], "'cli' in extras"),
      ),
      { ...glibc, extras: ["cli"] },
    );
    expect(selected.map((s) => s.wheel.name)).toEqual([
      "app-1.0-py3-none-any.whl",
      "fast-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
      "extra-1.0-py3-none-any.whl",
    ]);
  });

  it("a needed package without an admitted wheel fails closed (65) naming key, package and wheels", () => {
    expect(() =>
      selectWheels(lock(pkg("fast", ["fast-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"])), plain),
    ).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Data,
        message:
          "wheels linux/amd64: no wheel of fast 1.0 is compatible with CPython 3.11.7 (cp311) and the filter [any] (it has fast-1.0-cp311-cp311-manylinux_2_17_x86_64.whl)",
      }),
    );
  });
});

describe("checkLockedHash", () => {
  const bytes = Buffer.from("wheel bytes");
  const digest = (a: string) => createHash(a).update(bytes).digest("hex");

  it.each([
    ["sha256 matches", { sha256: digest("sha256") }, undefined],
    ["the strongest recorded is checked", { sha256: "00", sha512: digest("sha512") }, undefined],
    ["a mismatch is 65", { sha256: "00" }, /sha256 .* does not match the lock's 00/],
    ["no usable algorithm is 65", { md5: "00" }, /records no sha256, sha384 or sha512 hash \(md5\)/],
  ] as const)("%s", (_rule, hashes, error) => {
    const check = () => checkLockedHash({ name: "a.whl", hashes: { ...hashes } }, bytes);
    if (error === undefined) expect(check).not.toThrow();
    else
      expect(check).toThrow(
        expect.objectContaining({ exitCode: ExitCode.Data, message: expect.stringMatching(error) }),
      );
  });
});

describe("checkWheelAbi", () => {
  it.each([
    ["a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", true],
    ["a-1.0-cp39-abi3-manylinux_2_17_x86_64.whl", true],
    ["a-1.0-py3-none-any.whl", true],
    ["a-1.0-cp312-cp312-manylinux_2_17_x86_64.whl", false],
    ["a-1.0-cp311-cp311d-manylinux_2_17_x86_64.whl", false],
  ])("%s: %s", (name, ok) => {
    const check = () => checkWheelAbi(name, "cp311");
    if (ok) expect(check).not.toThrow();
    else
      expect(check).toThrow(
        expect.objectContaining({
          exitCode: ExitCode.Data,
          message: expect.stringContaining("is not python.abi cp311, abi3 or none"),
        }),
      );
  });
});
