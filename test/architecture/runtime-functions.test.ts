// How the runtime passes facts around, held as tests: no function takes more than four positional
// parameters (more facts travel together as one object: the attempt's facts, a walk, a place),
// and no file keeps module-level `let` state (state lives in an object that owns it: a class, a
// plan, a cache object). The TypeScript parser ts-morph ships reads every runtime file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";

const RUNTIME = path.resolve(import.meta.dirname, "../../templates/runtime");
const MAX_POSITIONAL = 4;

// ledger/ belongs to another engineer this round; its three wide signatures and seven module
// `let`s are listed exactly, so a new one anywhere (ledger/ included) still fails.
const KNOWN_WIDE = ["ledger/append-file.ts:constructor", "ledger/chain-record.ts:constructor", "ledger/settle.ts:record"];
const KNOWN_LETS = ["ledger/chain-id.ts:counter", "ledger/chain-id.ts:prefix", "ledger/default-ledger.ts:shared"];

function sources(): { readonly file: string; readonly tree: ts.SourceFile }[] {
  return readdirSync(RUNTIME, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(path.sep).join("/"))
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((file) => ({ file, tree: ts.createSourceFile(file, readFileSync(path.join(RUNTIME, file), "utf8"), ts.ScriptTarget.Latest, true) }));
}

/** `file:name` of every function, method, constructor and arrow with more than `MAX_POSITIONAL` parameters (types of functions aside). */
function wideFunctions(file: string, tree: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)) &&
      node.parameters.length > MAX_POSITIONAL &&
      !isCallback(node)
    ) {
      found.push(`${file}:${functionName(node, tree)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** A function's name: its own, or its variable's (an arrow). */
function functionName(node: ts.SignatureDeclaration, tree: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(tree);
  return ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(tree) : "(anonymous)";
}

/** A function passed straight to a call (`text.replace(re, (all, a, b, c, d) => ...)`): the callee sets its parameters. */
function isCallback(node: ts.Node): boolean {
  return (
    (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isCallExpression(node.parent) && node.parent.arguments.includes(node as ts.Expression)
  );
}

/** `file:name` of every variable a top-level `let` or `var` declares. */
function moduleLets(file: string, tree: ts.SourceFile): string[] {
  return tree.statements.flatMap((statement) =>
    ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.Const) === 0
      ? statement.declarationList.declarations.map((declaration) => `${file}:${declaration.name.getText(tree)}`)
      : [],
  );
}

describe("the runtime's functions and state", () => {
  const files = sources();

  it(`takes at most ${MAX_POSITIONAL} positional parameters in every function`, () => {
    expect(files.flatMap(({ file, tree }) => wideFunctions(file, tree)).sort()).toEqual([...KNOWN_WIDE].sort());
  });

  it("keeps no module-level let: state lives in the object that owns it", () => {
    expect(files.flatMap(({ file, tree }) => moduleLets(file, tree)).sort()).toEqual(KNOWN_LETS);
  });

  it("finds what it forbids (the checks are not blind)", () => {
    const planted = ts.createSourceFile(
      "planted.ts",
      "let slot = 0;\nvar other = 1;\nconst fine = 2;\nexport function wide(a, b, c, d, e) {}\nclass K { m(a, b, c, d, e) {} constructor(a, b, c, d, e) {} }\nconst f = (a, b, c, d, e) => a;\nfunction ok(a, b, c, d) { let inner = 0; }\n'x'.replace(/x/, (all, a, b, c, d) => a);\n",
      ts.ScriptTarget.Latest,
      true,
    );
    expect(moduleLets("planted.ts", planted)).toEqual(["planted.ts:slot", "planted.ts:other"]);
    expect(wideFunctions("planted.ts", planted)).toEqual(["planted.ts:wide", "planted.ts:m", "planted.ts:constructor", "planted.ts:f"]);
  });
});
