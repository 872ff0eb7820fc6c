import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generation, packing and tsc runs take seconds on a two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
