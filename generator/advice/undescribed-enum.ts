// An enum of many values with no description: past MAX_LISTED_VALUES the error the model gets
// back no longer lists the allowed set (generator/emit/error-hints.ts), so the schema is the only
// place the model can learn what each value means, and with no description it guesses from the
// spelling (wrong-enum failures, the report's "legibility or aliases" diagnosis). A set of
// `const` branches counts too, unless its branches are described.
import { MAX_LISTED_VALUES } from "../emit/error-hints.ts";
import { isSchemaObject, type Schema } from "../schema-walk.ts";
import { type Advice, type AdvisedTool, adviceAt } from "./advice-item.ts";
import { schemaNodes } from "./schema-nodes.ts";

/** More values than the error message lists. */
export const MANY_VALUES = MAX_LISTED_VALUES;

export function undescribedEnumAdvice(tool: AdvisedTool): Advice[] {
  const out: Advice[] = [];
  const nodes = schemaNodes(tool.inputSchema);
  // An enum on the items of a described array (`tags: {description, items: {enum}}`) is described there.
  const describedItems = new Set(nodes.filter(({ node }) => described(node) && isSchemaObject(node["items"])).map(({ pointer }) => `${pointer}/items`));
  for (const { node, pointer } of nodes) {
    const count = valueCount(node);
    if (count <= MANY_VALUES || described(node) || describedItems.has(pointer)) continue;
    out.push(
      adviceAt(
        tool,
        "undescribed-enum",
        pointer,
        `${count} allowed values and no description: past ${MANY_VALUES} the error no longer lists them, so the model guesses from the spelling`,
        `add a "description" saying what the values mean and how to choose (or describe each value in a oneOf of {"const", "description"}), or split the set if fewer values would do`,
      ),
    );
  }
  return out;
}

/** The values of an `enum`, or of a oneOf/anyOf whose branches are all undescribed `const`s. */
function valueCount(node: Schema): number {
  if (Array.isArray(node["enum"])) return new Set(node["enum"].map((value) => JSON.stringify(value))).size;
  for (const keyword of ["oneOf", "anyOf"]) {
    const branches = node[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    if (branches.every((branch) => isSchemaObject(branch) && "const" in branch && !described(branch))) return branches.length;
  }
  return 0;
}

function described(node: Schema): boolean {
  return typeof node["description"] === "string" && node["description"].trim() !== "";
}
