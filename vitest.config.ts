import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Workspace packages export their TypeScript sources under the "source" condition,
    // so tests run against the code as written, without a build.
    conditions: ["source"],
  },
  test: {
    pool: "threads",
    globalSetup: ["scripts/vitest-global-setup.ts"],
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
