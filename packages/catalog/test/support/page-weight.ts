import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";

export interface ScriptWeight {
  /** Script responses received until load and network idle. */
  count: number;
  bytes: number;
  gzipBytes: number;
}

export const gzipSize = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** Navigates to `url` and sums the JavaScript loaded before any interaction (until network idle). */
export async function scriptsBeforeInteraction(page: Page, url: string): Promise<ScriptWeight> {
  const scripts: Response[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === "script") scripts.push(response);
  };
  page.on("response", onResponse);
  try {
    await page.goto(url, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
  } finally {
    page.off("response", onResponse);
  }
  const bodies = await Promise.all(scripts.map((r) => r.body()));
  return {
    count: bodies.length,
    bytes: bodies.reduce((sum, b) => sum + b.length, 0),
    gzipBytes: bodies.reduce((sum, b) => sum + gzipSize(b), 0),
  };
}
