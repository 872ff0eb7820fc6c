import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const generated = fileURLToPath(new URL("./generated/", import.meta.url));

export default defineConfig({
  // The README's agent loops (examples/adapters/) import the example package by the name a user
  // would give it; tsconfig.json maps the same name for the type checker.
  resolve: {
    alias: [
      { find: /^@acme\/agent-tools\/([a-z-]+)$/, replacement: `${generated}extras/$1/index.js` },
      { find: /^@acme\/agent-tools$/, replacement: `${generated}index.js` },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Generation, packing and tsc runs take seconds on a two-core machine, and minutes on one
    // shared by many jobs (a test that takes 50 s alone took 160 s at load 30). The timeout only
    // ends a test that hangs; it must never be what a slow machine reaches.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
