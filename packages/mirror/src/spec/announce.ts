import type { SectionContext } from "./context.js";
import { readCron } from "./cron.js";
import type { Field, MapField } from "./field.js";
import {
  DEFAULT_FORGE_HOST,
  type Forge,
  type ForgeCoordinate,
  matchForgeCoordinate,
  PUBLIC_FORGE_HOSTS,
} from "./forge-coordinate.js";

/** `announce`: opt-in publication of pushed tags to a package index. */
export interface AnnounceSpec {
  /** Logical index package `<namespace>/<package>`. */
  package: string;
  /** Where the request is opened from; absent = the branch is pushed to the index repository itself. */
  fork?: ForgeCoordinate;
  /** Absent = the tool's own public index repository (on the public forgeone host). */
  index_repo?: ForgeCoordinate;
  /** As written, or inferred from the index repository's public host. */
  forge: Forge;
  /** Default `api`; `git` only on forgetwo and without a fork. */
  transport: "api" | "git";
  /** UTC cron of the catch-up workflow, verbatim; absent = dispatch only. */
  schedule?: string;
}

const KEYS = ["package", "fork", "index_repo", "forge", "transport", "schedule"];
const SEGMENT = "[a-z0-9][a-z0-9._-]*";
const PACKAGE = new RegExp(`^${SEGMENT}/${SEGMENT}$`);

export function readAnnounce(field: Field, _ctx: SectionContext): AnnounceSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(KEYS);
  const packageField = map.require("package");
  const pkg = packageField && readPackage(packageField);
  const fork = map.has("fork") ? readCoordinate(map.get("fork")) : undefined;
  const indexRepo = map.has("index_repo") ? readCoordinate(map.get("index_repo")) : undefined;
  const forge = readForge(map, indexRepo);
  if (forge) checkCoordinates(map, forge, fork, indexRepo);
  const transport = map.has("transport") ? map.get("transport").oneOf(["api", "git"] as const) : "api";
  if (transport === "git" && forge) {
    if (forge !== "forgetwo")
      map.get("transport").fail("transport git is only for forgetwo; use api on forgeone");
    else if (map.has("fork"))
      map
        .get("transport")
        .fail("transport git pushes to the index repository itself; it cannot be combined with fork");
  }
  const schedule = map.has("schedule") ? readCron(map.get("schedule")) : undefined;
  if (map.diagnostics.list.length > before || !pkg || !forge || !transport) return undefined;
  return {
    package: pkg,
    ...(fork ? { fork } : {}),
    ...(indexRepo ? { index_repo: indexRepo } : {}),
    forge,
    transport,
    ...(schedule === undefined ? {} : { schedule }),
  };
}

function readPackage(field: Field): string | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  if (!text.includes("/")) {
    return field.fail(`${JSON.stringify(text)} is a bare name; an index package is <namespace>/<package>`);
  }
  if (!PACKAGE.test(text)) {
    return field.fail(
      `${JSON.stringify(text)} is not <namespace>/<package> in lowercase letters, digits, '.', '_' and '-'`,
    );
  }
  return text;
}

function readCoordinate(field: Field): ForgeCoordinate | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  const coordinate = matchForgeCoordinate(text);
  if (typeof coordinate === "string") return field.fail(`${JSON.stringify(text)} ${coordinate}`);
  return coordinate;
}

/** The forge of the index repository's host: given, or known for the two public hosts. */
function readForge(map: MapField, indexRepo: ForgeCoordinate | undefined): Forge | undefined {
  const forgeField = map.get("forge");
  const given = forgeField.present ? forgeField.oneOf(["forgeone", "forgetwo"] as const) : undefined;
  if ((forgeField.present && !given) || (map.has("index_repo") && !indexRepo)) return undefined;
  const host = indexRepo?.host ?? DEFAULT_FORGE_HOST;
  const inferred = PUBLIC_FORGE_HOSTS[host];
  if (!given) {
    if (inferred) return inferred;
    return map
      .get("index_repo")
      .fail(`${host} is a self-hosted forge; set forge: forgeone or forge: forgetwo`);
  }
  if (inferred && given !== inferred) {
    return forgeField.fail(
      indexRepo
        ? `${host} is ${inferred}, not ${given}`
        : `the default index repository is on ${host} (${inferred}); set index_repo for a ${given} index`,
    );
  }
  return given;
}

function checkCoordinates(
  map: MapField,
  forge: Forge,
  fork: ForgeCoordinate | undefined,
  indexRepo: ForgeCoordinate | undefined,
): void {
  const indexHost = indexRepo?.host ?? DEFAULT_FORGE_HOST;
  if (fork && fork.host !== indexHost) {
    map
      .get("fork")
      .fail(`the fork is on ${fork.host} but the index repository on ${indexHost}; both must be on one host`);
  }
  if (forge !== "forgeone") return;
  for (const [key, coordinate] of [
    ["fork", fork],
    ["index_repo", indexRepo],
  ] as const) {
    if (coordinate?.namespace.includes("/")) {
      map
        .get(key)
        .fail(`nested namespace ${JSON.stringify(coordinate.namespace)}; forgeone has one-level namespaces`);
    }
  }
}
