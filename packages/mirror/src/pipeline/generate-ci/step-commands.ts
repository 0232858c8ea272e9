import type { Word } from "./shell-line.js";
import { type SpecSlot, specArgs } from "./slot.js";

/**
 * The pipeline commands the generated jobs run, one definition for every forge: the files they
 * hand each other are named here once (`plan.json`, `bundles/`, `junit/`, `run-summary.json`). A
 * job's own values come in as shell variables where its forge passes them so (`shellVariable`).
 */
export const planArgs = (slot: Pick<SpecSlot, "specPath">) => ["plan", ...specArgs(slot), "-o", "plan.json"];

export const prepareArgs = (slot: Pick<SpecSlot, "specPath">, version: Word): Word[] => [
  "prepare",
  ...specArgs(slot),
  "--plan",
  "plan.json",
  "--version",
  version,
  "--bundles-dir",
  "bundles",
];

export const testArgs = (leg: Word, container: Word): Word[] => [
  "test",
  "--plan",
  "plan.json",
  "--leg",
  leg,
  "--container",
  container,
  "--bundles-dir",
  "bundles",
  "--junit-dir",
  "junit",
];

export const pushArgs = (slot: Pick<SpecSlot, "specPath">) => [
  "push",
  ...specArgs(slot),
  "--plan",
  "plan.json",
  "--bundles-dir",
  "bundles",
  "--junit-dir",
  "junit",
  "--write-summary",
  "run-summary.json",
];

export const notifyArgs = (slot: Pick<SpecSlot, "specPath">) => [
  "notify",
  "--run-summary",
  "run-summary.json",
  ...specArgs(slot),
];
