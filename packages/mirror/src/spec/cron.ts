import type { Field } from "./field.js";

const cronCharset = /^[0-9A-Za-z*/,\- ]+$/;

/**
 * Why `text` is not acceptable as a schedule (`cascade.schedule`, `versions.poll_interval`,
 * `announce.schedule`), or undefined when it is: non-empty, and only `0-9 A-Z a-z * / , -` and
 * space. The forge parses the expression; the spec only guards the characters.
 */
export function cronProblem(text: string): string | undefined {
  if (text.trim() === "") return "must not be empty";
  if (cronCharset.test(text)) return undefined;
  const bad = [...text].find((char) => !cronCharset.test(char)) ?? "";
  return `${JSON.stringify(text)} holds ${JSON.stringify(bad)}; a schedule uses only 0-9 A-Z a-z * / , - and space`;
}

/** A cron schedule, kept verbatim. */
export function readCron(field: Field): string | undefined {
  const text = field.string();
  if (text === undefined) return undefined;
  const problem = cronProblem(text);
  return problem === undefined ? text : field.fail(problem);
}

/** Whether two schedules fire at the same times as written (whitespace runs do not count). */
export function sameSchedule(a: string, b: string): boolean {
  const words = (text: string) => text.trim().split(/ +/).join(" ");
  return words(a) === words(b);
}
