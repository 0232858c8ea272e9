import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { credentialSlug, resolveCredential } from "../src/credentials/credentials.js";
import { lookupDockerConfig, parseHelperOutput } from "../src/credentials/docker-config.js";
import { findNetrcMachine, parseNetrc } from "../src/credentials/netrc.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("netrc parsing", () => {
  const text = [
    "# a comment line",
    "machine other.example.com login o password op",
    "default login d password dp",
    "machine reg.example.com:5000",
    '  login "user name" password "pa ss\\"word" # trailing comment',
    "macdef init",
    "machine evil.example.com login m password mp",
    "",
    "machine reg.example.com login plain password pp account acc",
  ].join("\n");
  const entries = parseNetrc(text);

  test("blocks, quoting, comments; a macdef body is not parsed", () => {
    expect(entries).toEqual([
      { machine: "other.example.com", login: "o", password: "op" },
      { machine: undefined, login: "d", password: "dp" },
      { machine: "reg.example.com:5000", login: "user name", password: 'pa ss"word' },
      { machine: "reg.example.com", login: "plain", password: "pp", account: "acc" },
    ]);
  });

  test("exact machine matches only; default never matches", () => {
    expect(findNetrcMachine(entries, "REG.example.com:5000")?.login).toBe("user name");
    expect(findNetrcMachine(entries, "reg.example.com")?.login).toBe("plain");
    expect(findNetrcMachine(entries, "evil.example.com")).toBeUndefined();
    expect(findNetrcMachine(entries, "unknown.example.com")).toBeUndefined();
    expect(findNetrcMachine(entries, "example.com")).toBeUndefined();
  });

  test("all on one line, and a file with only default", () => {
    expect(parseNetrc("machine a login b password c machine d login e password f")).toHaveLength(2);
    expect(findNetrcMachine(parseNetrc("default login x password y\n"), "any.host")).toBeUndefined();
  });
});

describe("docker config parsing", () => {
  test("auths by host or URL key, auth or username/password, identity tokens", () => {
    const config = {
      auths: {
        "https://reg.example.com/v1/": { auth: b64("alice:pa:ss") },
        "other.example.com:5000": { username: "bob", password: "pw" },
        "token.example.com": { auth: b64("carol:"), identitytoken: "idt" },
        "empty.example.com": {},
        "https://index.docker.io/v1/": { auth: b64("hub:hp") },
      },
    };
    expect(lookupDockerConfig(config, "reg.example.com")).toEqual({
      kind: "basic",
      username: "alice",
      password: "pa:ss",
    });
    expect(lookupDockerConfig(config, "other.example.com:5000")).toEqual({
      kind: "basic",
      username: "bob",
      password: "pw",
    });
    expect(lookupDockerConfig(config, "token.example.com")).toEqual({
      kind: "token",
      username: "carol",
      token: "idt",
    });
    expect(lookupDockerConfig(config, "empty.example.com")).toEqual({ kind: "none" });
    expect(lookupDockerConfig(config, "registry-1.docker.io")).toEqual({
      kind: "basic",
      username: "hub",
      password: "hp",
    });
    expect(lookupDockerConfig(config, "other.example.com")).toEqual({ kind: "none" });
  });

  test("credHelpers beat auths; credsStore is the last resort", () => {
    const config = {
      auths: { "a.example.com": { auth: b64("u:p") }, "b.example.com": {} },
      credHelpers: { "a.example.com": "ecr" },
      credsStore: "desktop",
    };
    expect(lookupDockerConfig(config, "a.example.com")).toEqual({ kind: "helper", helper: "ecr" });
    expect(lookupDockerConfig(config, "b.example.com")).toEqual({ kind: "helper", helper: "desktop" });
    expect(
      lookupDockerConfig(
        { auths: { "c.example.com": { auth: b64("u:p") } }, credsStore: "x" },
        "c.example.com",
      ).kind,
    ).toBe("basic");
  });

  test("helper output", () => {
    expect(parseHelperOutput('{"ServerURL":"x","Username":"u","Secret":"s"}')).toEqual({
      kind: "basic",
      username: "u",
      password: "s",
    });
    expect(parseHelperOutput('{"Username":"<token>","Secret":"t"}')).toEqual({ kind: "token", token: "t" });
    expect(parseHelperOutput("credentials not found")).toEqual({ kind: "none" });
  });
});

describe("the credential ladder", () => {
  let dir: TempDir;
  let env: NodeJS.ProcessEnv;
  const host = "reg.example.com:5000";

  beforeEach(async () => {
    dir = await tempDir("oci-creds-");
    // HOME points at an empty directory: nothing of the machine's own config leaks in
    env = { HOME: dir.path, PATH: join(dir.path, "bin") };
  });
  afterEach(async () => {
    await dir.remove();
  });

  const writeNetrc = (text: string) => writeFile(join(dir.path, ".netrc"), text);
  const writeDockerConfig = async (config: unknown) => {
    await mkdir(join(dir.path, ".docker"), { recursive: true });
    await writeFile(join(dir.path, ".docker", "config.json"), JSON.stringify(config));
  };

  test("slug: every non-alphanumeric character becomes _", () => {
    expect(credentialSlug("reg.example.com:5000")).toBe("REG_EXAMPLE_COM_5000");
    expect(credentialSlug("[::1]:5000", false)).toBe("___1__5000");
    expect(credentialSlug("Reg-X.io", false)).toBe("Reg_X_io");
  });

  test("anonymous when nothing is configured", async () => {
    expect(await resolveCredential(host, { env })).toBeUndefined();
  });

  test("environment first, then netrc, then docker config", async () => {
    await writeDockerConfig({ auths: { [host]: { auth: b64("docker-user:docker-pass") } } });
    expect(await resolveCredential(host, { env })).toMatchObject({
      kind: "basic",
      username: "docker-user",
      password: "docker-pass",
    });

    await writeNetrc(`machine ${host} login netrc-user password netrc-pass\n`);
    expect(await resolveCredential(host, { env })).toMatchObject({
      username: "netrc-user",
      source: `netrc ${join(dir.path, ".netrc")}`,
    });

    env.PKG_AUTH_REG_EXAMPLE_COM_5000_USER = "env-user";
    env.PKG_AUTH_REG_EXAMPLE_COM_5000_TOKEN = "env-token";
    expect(await resolveCredential(host, { env })).toEqual({
      kind: "basic",
      username: "env-user",
      password: "env-token",
      source: "PKG_AUTH_REG_EXAMPLE_COM_5000_*",
    });
  });

  test("dockerConfig: false stops the ladder after netrc", async () => {
    await writeDockerConfig({ auths: { [host]: { auth: b64("docker-user:docker-pass") } } });
    expect(await resolveCredential(host, { env, dockerConfig: false })).toBeUndefined();
    expect(await resolveCredential(host, { env, dockerConfig: true })).toMatchObject({
      username: "docker-user",
    });
    await writeNetrc(`machine ${host} login netrc-user password netrc-pass\n`);
    expect(await resolveCredential(host, { env, dockerConfig: false })).toMatchObject({
      username: "netrc-user",
    });
  });

  test("environment: bearer by default without USER, same-case slug, explicit TYPE, bad TYPE", async () => {
    expect(
      await resolveCredential(host, { env: { ...env, PKG_AUTH_REG_EXAMPLE_COM_5000_TOKEN: "tok1" } }),
    ).toMatchObject({ kind: "token", token: "tok1" });
    expect(
      await resolveCredential(host, { env: { ...env, PKG_AUTH_reg_example_com_5000_TOKEN: "tok2" } }),
    ).toMatchObject({ kind: "token", token: "tok2" });
    expect(
      await resolveCredential(host, {
        env: {
          ...env,
          PKG_AUTH_REG_EXAMPLE_COM_5000_TYPE: "Bearer",
          PKG_AUTH_REG_EXAMPLE_COM_5000_USER: "u",
          PKG_AUTH_REG_EXAMPLE_COM_5000_TOKEN: "tok3",
        },
      }),
    ).toMatchObject({ kind: "token", token: "tok3" });
    await expect(
      resolveCredential(host, {
        env: {
          ...env,
          PKG_AUTH_REG_EXAMPLE_COM_5000_TYPE: "digest",
          PKG_AUTH_REG_EXAMPLE_COM_5000_TOKEN: "secret-value-1",
        },
      }),
    ).rejects.toMatchObject({ exitCode: 64 });
    const missing = resolveCredential(host, {
      env: {
        ...env,
        PKG_AUTH_REG_EXAMPLE_COM_5000_TYPE: "basic",
        PKG_AUTH_REG_EXAMPLE_COM_5000_TOKEN: "secret-value-2",
      },
    });
    await expect(missing).rejects.toMatchObject({ exitCode: 78 });
    await expect(missing).rejects.not.toThrow(/secret-value-2/);
  });

  test("netrc: $NETRC wins over ~/.netrc, the port-less host is tried second, default is ignored", async () => {
    await writeNetrc(`machine ${host} login home password home-pass\n`);
    const other = join(dir.path, "other-netrc");
    await writeFile(
      other,
      "default login d password default-pass\nmachine reg.example.com login noport password np\n",
    );
    expect(await resolveCredential(host, { env: { ...env, NETRC: other } })).toMatchObject({
      username: "noport",
      password: "np",
    });
    await writeFile(other, "default login d password default-pass\n");
    expect(await resolveCredential(host, { env: { ...env, NETRC: other } })).toBeUndefined();
    expect(await resolveCredential("elsewhere.example.com", { env })).toBeUndefined();
  });

  test("docker config: $DOCKER_CONFIG, identity tokens, invalid JSON", async () => {
    const custom = join(dir.path, "custom-docker");
    await mkdir(custom);
    await writeFile(
      join(custom, "config.json"),
      JSON.stringify({ auths: { [`https://${host}`]: { identitytoken: "id-tok" } } }),
    );
    expect(await resolveCredential(host, { env: { ...env, DOCKER_CONFIG: custom } })).toMatchObject({
      kind: "token",
      token: "id-tok",
    });
    await writeFile(join(custom, "config.json"), "{not json");
    await expect(resolveCredential(host, { env: { ...env, DOCKER_CONFIG: custom } })).rejects.toMatchObject({
      exitCode: 78,
    });
  });

  test("docker config: a credential helper gets the host on stdin, not in argv", async () => {
    const bin = join(dir.path, "bin");
    await mkdir(bin);
    const log = join(dir.path, "helper.log");
    const helper = join(bin, "docker-credential-testhelper");
    await writeFile(
      helper,
      `#!/bin/sh\nhost=$(cat)\necho "args=$* host=$host" > "${log}"\nif [ "$host" = "${host}" ]; then echo '{"Username":"helper-user","Secret":"helper-secret"}'; else echo nope; exit 1; fi\n`,
    );
    await chmod(helper, 0o755);
    await writeDockerConfig({ credHelpers: { [host]: "testhelper" }, credsStore: "absent" });
    env.PATH = `${bin}:/usr/bin:/bin`;
    expect(await resolveCredential(host, { env })).toEqual({
      kind: "basic",
      username: "helper-user",
      password: "helper-secret",
      source: "credential helper docker-credential-testhelper",
    });
    expect(await readFile(log, "utf8")).toBe(`args=get host=${host}\n`);
    // a store that is not installed, or has nothing, means anonymous
    expect(await resolveCredential("other.example.com", { env })).toBeUndefined();
  });
});
