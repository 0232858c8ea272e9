import { SpecError } from "../spec/diagnostics.js";
import { Diagnostics, Field } from "../spec/field.js";
import { parseSpecText } from "../spec/source-file.js";
import { readUrlIndexVersions, type UrlIndexVersions } from "../spec/url-index-versions.js";

/**
 * Reads a url-index v1 document fetched or generated at run time, with the same reader (and so the
 * same messages and digest normalisation) as the inline `source.versions`. JSON is read as YAML.
 * `origin` names the document in messages (`<origin>:line:col: key.path: problem`). Any problem
 * throws a SpecError (exit 65) carrying every diagnostic, before anything is downloaded.
 */
export function parseUrlIndexDocument(text: string, origin: string, dir: string): UrlIndexVersions {
  const source = parseSpecText(text, origin, dir);
  const diagnostics = new Diagnostics();
  const root = new Field(source, diagnostics, source.doc.contents, "", source.doc.contents);
  const map = root.isNull ? root.fail("the document is empty; expected a mapping with versions") : root.map();
  let versions: UrlIndexVersions | undefined;
  if (map) {
    map.only(["$schema", "versions"]);
    const schema = map.get("$schema");
    if (schema.present) schema.string({ nonEmpty: true });
    const versionsField = map.require("versions");
    versions = versionsField && readUrlIndexVersions(versionsField);
  }
  if (versions === undefined && !diagnostics.failed) root.fail("not a url-index v1 document");
  if (diagnostics.failed || versions === undefined) {
    throw new SpecError([...diagnostics.list].sort((a, b) => a.line - b.line || a.col - b.col));
  }
  return versions;
}
