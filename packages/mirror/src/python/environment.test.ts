import { describe, expect, it } from "vitest";
import { markerEnvironment } from "./environment.js";
import { markerHolds } from "./markers.js";

describe("markerEnvironment", () => {
  it("describes CPython at python.version on the wheels key's os/arch", () => {
    const env = markerEnvironment("3.11", "linux", "arm64");
    expect(env).toMatchObject({
      python_version: "3.11",
      python_full_version: "3.11.0",
      implementation_name: "cpython",
      os_name: "posix",
      sys_platform: "linux",
      platform_system: "Linux",
      platform_machine: "aarch64",
    });
    expect(markerEnvironment("3.12.4", "windows", "amd64")).toMatchObject({
      python_version: "3.12",
      python_full_version: "3.12.4",
      os_name: "nt",
      sys_platform: "win32",
      platform_machine: "AMD64",
    });
    expect(markerEnvironment("3.13", "darwin", "arm64").platform_machine).toBe("arm64");
  });

  it("answers a lock's markers: extras by normalised name, both as `extra` and the PEP 751 `extras` set", () => {
    const one = markerEnvironment("3.11", "linux", "amd64", ["Socks_Proxy"]);
    expect(markerHolds('extra == "socks-proxy"', one)).toBe(true);
    expect(markerHolds("'socks.proxy' in extras", one)).toBe(true);
    const none = markerEnvironment("3.11", "linux", "amd64");
    expect(markerHolds('extra == "socks-proxy"', none)).toBe(false);
    expect(markerHolds('"x" not in extras', none)).toBe(true);
    const two = markerEnvironment("3.11", "linux", "amd64", ["a", "b"]);
    expect(markerHolds('extra == "b"', two)).toBe(true);
    expect(markerHolds('sys_platform == "linux" and python_version >= "3.9"', two)).toBe(true);
    expect(markerHolds(undefined, two)).toBe(true);
  });
});
