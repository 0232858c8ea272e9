import type { Field } from "./field.js";

/**
 * A command whose standard output is a document or a value (`source.generator`, a version bound's
 * `generator`). It runs in the spec's directory, or in `working_directory` relative to it.
 */
export interface GeneratorSpec {
  command: string[];
  working_directory?: string;
  /** Default 60. */
  timeout_seconds: number;
}

export const DEFAULT_GENERATOR_TIMEOUT_SECONDS = 60;

export function readGenerator(field: Field): GeneratorSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["command", "working_directory", "timeout_seconds"]);
  const command = map.require("command")?.strings({ nonEmpty: true, nonEmptyItems: true });
  const directoryField = map.get("working_directory");
  const working_directory = directoryField.present ? directoryField.string({ nonEmpty: true }) : undefined;
  const timeoutField = map.get("timeout_seconds");
  const timeout_seconds = timeoutField.present
    ? timeoutField.integer({ min: 1 })
    : DEFAULT_GENERATOR_TIMEOUT_SECONDS;
  if (command === undefined || timeout_seconds === undefined) return undefined;
  if (directoryField.present && working_directory === undefined) return undefined;
  return { command, ...(working_directory === undefined ? {} : { working_directory }), timeout_seconds };
}
