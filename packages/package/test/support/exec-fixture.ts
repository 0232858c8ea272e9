// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
// The packages the `pkg exec` tests run: an app with a private dependency (an interpreter stand-in,
// pinned by its index digest) and a public one (pinned by its manifest digest), an entrypoint
// that runs the interpreter, and env entries of every visibility; and a package whose bin/tool
// is not executable.
import { join } from "node:path";
import { dir, file } from "./bundle-trees.js";
import { type PushedPackage, publishPackage, script } from "./exec-packages.js";

export interface ExecFixture {
  /** `<prefix>acme/app:1.0` and the others, as `pkg exec` takes them. */
  app: string;
  broken: string;
  pushed: { app: PushedPackage; pyfake: PushedPackage; data: PushedPackage; broken: PushedPackage };
}

/**
 * Publishes the fixture packages under `prefix` (`127.0.0.1:PORT/` for a registry, with `layout`
 * any `host/` since a layout ignores it).
 */
export async function publishExecFixture(
  work: string,
  prefix: string,
  layout?: string,
): Promise<ExecFixture> {
  const where = layout === undefined ? {} : { layout };
  const pyfake = await publishPackage({
    work,
    ...where,
    reference: `${prefix}acme/pyfake:1.0`,
    tree: {
      bin: dir(),
      "bin/pyfake": script('echo "pyfake $* private=${APP_PRIVATE:-unset} mode=${PYFAKE_MODE:-unset}"'),
    },
    metadata: {
      env: [
        { key: "PATH", type: "path", value: "${installPath}/bin" },
        { key: "PYFAKE_MODE", type: "constant", value: "on" },
        { key: "PYFAKE_SECRET", type: "constant", value: "s", visibility: "private" },
      ],
    },
  });
  const data = await publishPackage({
    work,
    ...where,
    reference: `${prefix}acme/data:2.0`,
    tree: { "bin/data-tool": script("echo data-tool"), "share/data.txt": file("data\n") },
    metadata: {
      env: [
        { key: "PATH", type: "path", value: "${installPath}/bin" },
        { key: "DATA_HOME", type: "constant", value: "${installPath}" },
        { key: "DATA_PRIVATE", type: "constant", value: "x", visibility: "private" },
        { key: "DATA_IFACE", type: "constant", value: "i", visibility: "interface" },
      ],
    },
  });
  const app = await publishPackage({
    work,
    ...where,
    reference: `${prefix}acme/app:1.0`,
    tree: { "bin/app": script('echo "app $*"'), "share/app.txt": file("app\n") },
    metadata: {
      env: [
        { key: "PATH", type: "path", value: "${installPath}/bin", required: true },
        { key: "APP_PRIVATE", type: "constant", value: "p", visibility: "private" },
        { key: "APP_IFACE", type: "constant", value: "i", visibility: "interface" },
        { key: "APP_PY", type: "constant", value: "${deps.pyfake.installPath}/bin/pyfake" },
      ],
      entrypoints: [{ name: "app-py", target: "pyfake", args: ["-m", "app"] }],
      dependencies: [
        { identifier: `${prefix || "r.example/"}acme/pyfake:1.0@${pyfake.indexDigest}` },
        { identifier: `${prefix || "r.example/"}acme/data@${data.manifestDigest}`, visibility: "public" },
      ],
    },
  });
  const broken = await publishPackage({
    work,
    ...where,
    reference: `${prefix}acme/broken:1.0`,
    tree: { "bin/tool": script('echo "packaged tool"', 0o644) },
    metadata: {
      env: [{ key: "PATH", type: "path", value: "${installPath}/bin" }],
      entrypoints: [{ name: "run-tool", target: "tool" }],
    },
  });
  return {
    app: `${prefix}acme/app:1.0`,
    broken: `${prefix}acme/broken:1.0`,
    pushed: { app, pyfake, data, broken },
  };
}

/** `$PKG_HOME/packages/sha256/<hex>`: where the store installs a manifest. */
export function installedDir(home: string, manifestDigest: string): string {
  return join(home, "packages", "sha256", manifestDigest.slice("sha256:".length));
}

/** `env` output as a record (values on one line). */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
