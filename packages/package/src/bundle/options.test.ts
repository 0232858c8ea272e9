import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { formatFromPath, planBundle, sourceDateEpoch } from "./options.js";

function usageFailure(action: () => unknown): PkgError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Usage);
    return error as PkgError;
  }
  throw new Error("expected a usage error");
}

describe("bundle options", () => {
  it("takes the format from the output's extension and names the accepted ones otherwise", () => {
    expect(formatFromPath("out/tool.tar.zst")).toBe("tar.zst");
    expect(formatFromPath("tool-1.0.tar.xz")).toBe("tar.xz");
    for (const bad of ["tool.tgz", "tool.tar", "tool.zst", "tool.tar.gz"]) {
      expect(usageFailure(() => formatFromPath(bad)).message).toContain(".tar.zst or .tar.xz");
    }
  });

  it("defaults the level per format and the media type to the OCI layer types", () => {
    const zstd = planBundle({ sourceDir: ".", output: "a.tar.zst" }, {});
    expect(zstd).toMatchObject({ format: "tar.zst", level: 3, mtime: 0 });
    expect(zstd.mediaType).toBe("application/vnd.oci.image.layer.v1.tar+zstd");
    const xz = planBundle({ sourceDir: ".", output: "a.tar.xz" }, {});
    expect(xz).toMatchObject({ format: "tar.xz", level: 6 });
    expect(xz.mediaType).toBe("application/vnd.oci.image.layer.v1.tar+xz");
    expect(planBundle({ sourceDir: ".", output: "a.bin", format: "tar.xz" }, {}).format).toBe("tar.xz");
  });

  it("refuses levels out of each format's range", () => {
    for (const level of [0, 20, -1, 2.5])
      usageFailure(() => planBundle({ sourceDir: ".", output: "a.tar.zst", level }, {}));
    for (const level of [-1, 10])
      usageFailure(() => planBundle({ sourceDir: ".", output: "a.tar.xz", level }, {}));
    expect(planBundle({ sourceDir: ".", output: "a.tar.zst", level: 19 }, {}).level).toBe(19);
    expect(planBundle({ sourceDir: ".", output: "a.tar.xz", level: 0 }, {}).level).toBe(0);
  });

  it("resolves threads: 0 is every core, and xz keeps its threaded encoder", () => {
    expect(planBundle({ sourceDir: ".", output: "a.tar.zst", threads: 3 }, {}).threads).toBe(3);
    expect(planBundle({ sourceDir: ".", output: "a.tar.zst" }, {}).threads).toBeGreaterThanOrEqual(1);
    expect(planBundle({ sourceDir: ".", output: "a.tar.xz", threads: 0 }, {}).threads).toBeGreaterThanOrEqual(
      2,
    );
    expect(planBundle({ sourceDir: ".", output: "a.tar.xz", threads: 1 }, {}).threads).toBe(1);
    usageFailure(() => planBundle({ sourceDir: ".", output: "a.tar.zst", threads: -1 }, {}));
  });

  it("reads SOURCE_DATE_EPOCH for the entries' mtime", () => {
    expect(sourceDateEpoch({})).toBe(0);
    expect(sourceDateEpoch({ SOURCE_DATE_EPOCH: "1700000000" })).toBe(1700000000);
    expect(planBundle({ sourceDir: ".", output: "a.tar.zst" }, { SOURCE_DATE_EPOCH: "86400" }).mtime).toBe(
      86400,
    );
    expect(
      planBundle({ sourceDir: ".", output: "a.tar.zst", mtime: 5 }, { SOURCE_DATE_EPOCH: "86400" }).mtime,
    ).toBe(5);
    expect(usageFailure(() => sourceDateEpoch({ SOURCE_DATE_EPOCH: "yesterday" })).message).toContain(
      "SOURCE_DATE_EPOCH",
    );
  });
});
