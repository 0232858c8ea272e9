import { isMap, isScalar } from "yaml";
import { readCron } from "./cron.js";
import type { Field } from "./field.js";

/** `cascade`: whether a push re-points the rolling tags, and the repair workflow's timer. */
export interface Cascade {
  enabled: boolean;
  /** UTC cron of the scheduled repair, verbatim; absent = dispatch only. */
  schedule?: string;
}

/** What an absent `cascade` means. */
export const DEFAULT_CASCADE: Cascade = { enabled: true };

/** `true`/`false`, or a mapping `{schedule?}`, which always means enabled (`{}` equals `true`). */
export function readCascade(field: Field): Cascade | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "boolean") return { enabled: node.value };
  if (!isMap(node)) return field.fail("expected true, false or a mapping with an optional schedule");
  const map = field.map();
  if (!map) return undefined;
  map.only(["schedule"]);
  const cascade: Cascade = { enabled: true };
  const schedule = map.get("schedule");
  if (schedule.present) {
    const text = readCron(schedule);
    if (text === undefined) return undefined;
    cascade.schedule = text;
  }
  return cascade;
}
