#!/usr/bin/env node
// Runs the built CLI when toolguard is installed as a package (Node does not strip types under
// node_modules, and the package ships dist/), and the TypeScript sources in a checkout, where a
// dist/ left by `npm pack` may be stale.
//
// This file stays parseable by old Node (no syntax or imports newer than Node 14), so that an
// unsupported Node gets a sentence instead of a SyntaxError from deeper in.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const REQUIRED_MAJOR = 22;
const major = Number(process.versions.node.split(".")[0]);
if (!(major >= REQUIRED_MAJOR)) {
  process.stderr.write(
    `toolguard needs Node.js ${REQUIRED_MAJOR} or newer (package.json "engines": ">=${REQUIRED_MAJOR}"); this is Node.js ${process.versions.node}. Install a current Node.js, or run it through npx with the node package (npx -p node@24 toolguard ...).\n`,
  );
  process.exit(1);
}

const source = new URL("../generator/main.ts", import.meta.url);
const installed = fileURLToPath(import.meta.url).includes("/node_modules/");
await import(installed || !existsSync(source) ? new URL("../dist/generator/main.js", import.meta.url).href : source.href);
