import { dataError } from "@pkg/common";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { JUnitCase, JUnitOutcome, JUnitReport, JUnitSuite } from "./model.js";
import { decodeAttribute, decodeText } from "./xml-text.js";

/** One element of the document: its name, its attributes (decoded) and its children in order. */
interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Array<Element | string>;
}

/** What fast-xml-parser hands over with `preserveOrder`: `{tag: children, ":@": attributes}`, `{"#text"}`, `{"#cdata"}`. */
type OrderedNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // references are decoded here (decodeText, decodeAttribute): only XML's own, and CDATA kept raw
  processEntities: false,
  cdataPropName: "#cdata",
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/**
 * Reads a JUnit XML document: a `<testsuites>` root, or a bare `<testsuite>` one; nested suites
 * are read as suites of their own. Anything that is not well-formed XML, or whose root is neither,
 * is a data error (65) naming `source` and, for XML errors, the line and column.
 */
export function parseJUnit(text: string, source: string): JUnitReport {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    throw dataError(`${source}:${line}${col === undefined ? "" : `:${col}`}: not well-formed XML: ${msg}`);
  }
  const roots = toElements(parser.parse(text) as OrderedNode[]).filter(
    (n): n is Element => typeof n !== "string",
  );
  const [root] = roots;
  if (root === undefined || roots.length > 1) throw dataError(`${source}: not one XML document`);
  if (root.name === "testsuite") return { suites: readSuites(root, source) };
  if (root.name === "testsuites") {
    return { suites: elements(root, "testsuite").flatMap((suite) => readSuites(suite, source)) };
  }
  throw dataError(`${source}: the root element is <${root.name}>, not <testsuites> or <testsuite>`);
}

function toElements(nodes: readonly OrderedNode[]): Array<Element | string> {
  const out: Array<Element | string> = [];
  for (const node of nodes) {
    if ("#text" in node) out.push(decodeText(String(node["#text"])));
    else if ("#cdata" in node) out.push(cdataText(node["#cdata"]));
    else {
      const name = Object.keys(node).find((key) => key !== ":@");
      if (name === undefined) continue;
      const raw = (node[":@"] ?? {}) as Record<string, unknown>;
      const attributes: Record<string, string> = {};
      for (const [key, value] of Object.entries(raw)) attributes[key] = decodeAttribute(String(value));
      out.push({ name, attributes, children: toElements(node[name] as OrderedNode[]) });
    }
  }
  return out;
}

function cdataText(value: unknown): string {
  return (value as OrderedNode[]).map((part) => String(part["#text"] ?? "")).join("");
}

const elements = (parent: Element, name: string): Element[] =>
  parent.children.filter((child): child is Element => typeof child !== "string" && child.name === name);

const textOf = (element: Element): string =>
  element.children.map((child) => (typeof child === "string" ? child : textOf(child))).join("");

/** A suite and the suites nested in it, each with only its own cases. */
function readSuites(element: Element, source: string): JUnitSuite[] {
  const name = element.attributes.name ?? "";
  const where = `${source}: testsuite ${JSON.stringify(name)}`;
  const cases = elements(element, "testcase").map((testCase) => readCase(testCase, name, where));
  const suite: JUnitSuite = {
    name,
    properties: elements(element, "properties")
      .flatMap((properties) => elements(properties, "property"))
      .map((property) => ({ name: property.attributes.name ?? "", value: property.attributes.value ?? "" })),
    cases,
    counts: {
      tests: count(element, "tests", cases.length, where),
      failures: count(element, "failures", 0, where),
      errors: count(element, "errors", 0, where),
      skipped: count(element, "skipped", 0, where),
    },
    ...optionalSeconds(element, where),
  };
  return [suite, ...elements(element, "testsuite").flatMap((nested) => readSuites(nested, source))];
}

function readCase(element: Element, suiteName: string, where: string): JUnitCase {
  const name = element.attributes.name;
  if (name === undefined) throw dataError(`${where}: a testcase has no name`);
  const outcome = (tag: string): JUnitOutcome | undefined => {
    const [first] = elements(element, tag);
    if (first === undefined) return undefined;
    const text = textOf(first);
    return {
      ...(first.attributes.type === undefined ? {} : { type: first.attributes.type }),
      ...(first.attributes.message === undefined ? {} : { message: first.attributes.message }),
      ...(text.trim() === "" ? {} : { text }),
    };
  };
  const output = (tag: string): string | undefined => {
    const found = elements(element, tag);
    return found.length === 0 ? undefined : found.map(textOf).join("");
  };
  const failure = outcome("failure");
  const error = outcome("error");
  const skipped = outcome("skipped");
  const systemOut = output("system-out");
  const systemErr = output("system-err");
  return {
    name,
    classname: element.attributes.classname ?? suiteName,
    time: optionalSeconds(element, `${where} testcase ${JSON.stringify(name)}`).time ?? 0,
    ...(failure === undefined ? {} : { failure }),
    ...(error === undefined ? {} : { error }),
    ...(skipped === undefined ? {} : { skipped }),
    ...(systemOut === undefined ? {} : { systemOut }),
    ...(systemErr === undefined ? {} : { systemErr }),
  };
}

function count(element: Element, attribute: string, absent: number, where: string): number {
  const value = element.attributes[attribute];
  if (value === undefined) return absent;
  if (!/^\s*\d+\s*$/.test(value)) throw dataError(`${where}: ${attribute}="${value}" is not a count`);
  return Number(value);
}

/** `time` in seconds; Surefire writes thousands separators (`1,234.5`). */
function optionalSeconds(element: Element, where: string): { time?: number } {
  const value = element.attributes.time;
  if (value === undefined || value.trim() === "") return {};
  const seconds = Number(value.replace(/,/g, ""));
  if (!Number.isFinite(seconds)) throw dataError(`${where}: time="${value}" is not a number of seconds`);
  return { time: seconds };
}
