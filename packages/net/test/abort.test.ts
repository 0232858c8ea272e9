import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { TestServer } from "@pkg/testkit";
import { describe, expect, test } from "vitest";
import { useNetTestBed } from "./support/test-bed.js";

const bed = useNetTestBed("net-abort-");

/** A server that never answers (or answers with a body it never ends), telling when a client goes away. */
async function holdingServer(
  answer: "never" | "endless-body",
): Promise<{ server: TestServer; gone: Promise<void>; arrived: Promise<void> }> {
  let arrivedNow: () => void = () => {};
  let goneNow: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrivedNow = resolve;
  });
  const gone = new Promise<void>((resolve) => {
    goneNow = resolve;
  });
  const server = await bed.server(async (req: IncomingMessage, res: ServerResponse) => {
    res.on("close", () => goneNow());
    arrivedNow();
    if (answer === "endless-body") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(Buffer.alloc(1024));
    }
    // read what is sent (a paused socket would not notice the client leaving)
    req.resume();
    await once(res, "close");
  });
  return { server, gone, arrived };
}

describe("a request's signal", () => {
  test.each(["fetch", "open"] as const)(
    "cuts a %s awaiting its answer: the connection closes, the reason comes back",
    async (how) => {
      const { server, gone, arrived } = await holdingServer("never");
      const controller = new AbortController();
      const http = bed.client();
      const request = { url: `${server.url}/held`, signal: controller.signal, timeoutMs: 60_000 };
      const pending = how === "fetch" ? http.fetch(request) : http.open(request);
      await arrived;
      const reason = new Error("deadline");
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      await gone;
    },
  );

  test("cuts a request whose body is still being sent", async () => {
    const { server, gone, arrived } = await holdingServer("never");
    const controller = new AbortController();
    // a body that keeps coming: the abort is the only way the request ends
    const endless = () =>
      new Readable({
        read() {
          this.push(Buffer.alloc(16 * 1024));
        },
      });
    const pending = bed.client().open({
      url: `${server.url}/upload`,
      method: "PUT",
      body: { open: endless },
      signal: controller.signal,
    });
    await arrived;
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    await gone;
  });

  test("cuts the answer's body being read after the head came", async () => {
    const { server, gone } = await holdingServer("endless-body");
    const controller = new AbortController();
    const response = await bed.client().open({ url: `${server.url}/body`, signal: controller.signal });
    expect(response.status).toBe(200);
    const reading = (async () => {
      for await (const _chunk of response.body) controller.abort(new Error("enough"));
    })();
    await expect(reading).rejects.toThrow();
    await gone;
  });
});
