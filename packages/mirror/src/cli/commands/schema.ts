import { Command } from "@commander-js/extra-typings";
import { printJson } from "@pkg/common";
import { mirrorSchema } from "../../schema/mirror.js";
import { planSchema } from "../../schema/plan.js";
import { urlIndexSchema } from "../../schema/url-index.js";

export function schemaCommand() {
  const schema = new Command("schema").description(
    "Print the JSON Schemas of the documents pkg-mirror reads.",
  );
  schema.addCommand(
    new Command("url-index")
      .description(
        "The url-index v1 JSON Schema (the document a url_index source fetches, inlines or generates).",
      )
      .action(() => printJson(urlIndexSchema)),
  );
  schema.addCommand(
    new Command("mirror")
      .description("The mirror.yml JSON Schema, for editors (the loader stays authoritative).")
      .action(() => printJson(mirrorSchema)),
  );
  schema.addCommand(
    new Command("plan")
      .description("The plan.json JSON Schema (what pkg-mirror package pipeline plan writes).")
      .action(() => printJson(planSchema)),
  );
  return schema;
}
