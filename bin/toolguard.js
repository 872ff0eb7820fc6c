#!/usr/bin/env node
// Runs the built CLI when toolguard is installed as a package (Node does not strip types
// under node_modules), and the TypeScript sources directly in a checkout.
import { existsSync } from "node:fs";

const built = new URL("../dist/generator/main.js", import.meta.url);
await import(existsSync(built) ? built.href : new URL("../generator/main.ts", import.meta.url).href);
