#!/usr/bin/env node
// Runs the built CLI when toolguard is installed as a package (Node does not strip types under
// node_modules, and the package ships dist/), and the TypeScript sources in a checkout, where a
// dist/ left by `npm pack` may be stale.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../generator/main.ts", import.meta.url);
const installed = fileURLToPath(import.meta.url).includes("/node_modules/");
await import(installed || !existsSync(source) ? new URL("../dist/generator/main.js", import.meta.url).href : source.href);
