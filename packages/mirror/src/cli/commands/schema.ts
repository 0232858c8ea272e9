import { Command } from "@commander-js/extra-typings";
import { printJson } from "@pkg/common";

export function schemaCommand() {
  const schema = new Command("schema").description(
    "Print the JSON Schemas of the documents pkg-mirror reads.",
  );
  schema.addCommand(
    new Command("url-index")
      .description(
        "The url-index v1 JSON Schema (the document a url_index source fetches, inlines or generates).",
      )
      .action(async () => printJson((await import("../../schema/url-index.js")).urlIndexSchema)),
  );
  schema.addCommand(
    new Command("mirror")
      .description("The mirror.yml JSON Schema, for editors (the loader stays authoritative).")
      .action(async () => printJson((await import("../../schema/mirror.js")).mirrorSchema)),
  );
  schema.addCommand(
    new Command("plan")
      .description("The plan.json JSON Schema (what pkg-mirror package pipeline plan writes).")
      .action(async () => printJson((await import("../../schema/plan.js")).planSchema)),
  );
  return schema;
}
