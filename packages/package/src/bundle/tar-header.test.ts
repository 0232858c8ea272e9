import { describe, expect, it } from "vitest";
import { tarHeaders } from "../../test/support/bundle-trees.js";
import { BLOCK, encodeHeader, paxRecord, splitUstarPath, type TarEntry } from "./tar-header.js";

const base: TarEntry = { name: "a.txt", type: "file", mode: 0o644, size: 0, mtime: 0 };

function checksumOk(block: Buffer): boolean {
  const stored = Number.parseInt(block.subarray(148, 154).toString("latin1"), 8);
  let sum = 0;
  for (let at = 0; at < BLOCK; at++) sum += at >= 148 && at < 156 ? 0x20 : (block[at] as number);
  return stored === sum;
}

/** A whole archive of one entry with no content, for tar-stream to read back. */
function archiveOf(entry: TarEntry): Buffer {
  return Buffer.concat([encodeHeader(entry), Buffer.alloc(2 * BLOCK)]);
}

describe("tar headers", () => {
  it("writes a plain ustar block with zero ids, empty user names and a valid checksum", async () => {
    const block = encodeHeader({ ...base, name: "bin/tool", mode: 0o755, size: 1234, mtime: 1700000000 });
    expect(block.length).toBe(BLOCK);
    expect(checksumOk(block)).toBe(true);
    expect(block.subarray(257, 265).toString("latin1")).toBe("ustar\x0000");
    const [header] = await tarHeaders(
      Buffer.concat([block, Buffer.alloc(1234 + 302), Buffer.alloc(2 * BLOCK)]),
    );
    expect(header).toMatchObject({
      name: "bin/tool",
      mode: 0o755,
      uid: 0,
      gid: 0,
      size: 1234,
      uname: "",
      gname: "",
    });
    expect(header?.mtime.getTime()).toBe(1700000000 * 1000);
  });

  it("splits long paths into ustar's prefix and name when it can", () => {
    const path = `${"d".repeat(120)}/${"f".repeat(90)}`;
    expect(splitUstarPath(path)).toEqual({ prefix: "d".repeat(120), name: "f".repeat(90) });
    expect(splitUstarPath("x".repeat(101))).toBeUndefined();
    expect(splitUstarPath("é")).toBeUndefined();
    expect(encodeHeader({ ...base, name: path }).length).toBe(BLOCK);
  });

  it("counts a PAX record's own length digits", () => {
    for (const value of ["a", "x".repeat(88), "x".repeat(89), "x".repeat(990), "日本"]) {
      const record = paxRecord("path", value);
      expect(Buffer.byteLength(record)).toBe(Number.parseInt(record, 10));
      expect(record.endsWith(`path=${value}\n`)).toBe(true);
    }
  });

  it("uses a PAX header for non-ASCII names, names that cannot be split, long link targets", async () => {
    const cases: TarEntry[] = [
      { ...base, name: "ünïcödé/日本語.txt" },
      { ...base, name: "n".repeat(150) },
      { ...base, name: "link", type: "symlink", mode: 0o777, linkname: `../${"t".repeat(120)}` },
      { ...base, name: "dir/", type: "directory", mode: 0o755, linkname: undefined },
    ];
    for (const entry of cases) {
      const encoded = encodeHeader(entry);
      expect(encoded.length % BLOCK).toBe(0);
      const [header] = await tarHeaders(archiveOf(entry));
      expect(header?.name).toBe(entry.name);
      if (entry.linkname) expect(header?.linkname).toBe(entry.linkname);
    }
    expect(encodeHeader(cases[0] as TarEntry)[156]).toBe(0x78);
    expect(encodeHeader(cases[3] as TarEntry).length).toBe(BLOCK);
  });
});
