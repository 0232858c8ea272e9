import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";

/** A program on runMain that writes far more than a pipe holds, then more again. */
const program = `
import { runMain } from "@pkg/common";
await runMain("t", async () => {
  for (let i = 0; i < 200; i++) process.stdout.write("x".repeat(65536) + "\\n");
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (let i = 0; i < 200; i++) process.stdout.write("y".repeat(65536) + "\\n");
  return 0;
});
`;

describe("runMain", () => {
  it("ends quietly when the reader of stdout goes away (a pipe into head)", async () => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", program], {
      cwd: new URL("..", import.meta.url),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // read one chunk, then close our end, as `head -c` does
    await once(child.stdout, "data");
    child.stdout.destroy();
    const [code] = (await once(child, "close")) as [number | null];
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
