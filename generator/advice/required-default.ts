// A required field with a `default`: the default says "you may leave this out", the `required`
// says the call fails without it, and toolguard never fills in a missing required field (rule
// 7). The model reads the default, omits the field, and gets a missing-required failure: the
// report's "should it be required?" diagnosis, visible in the schema already.
import { type Advice, type AdvisedTool, adviceAt } from "./advice-item.ts";
import { propertyNodes } from "./schema-nodes.ts";

export function requiredDefaultAdvice(tool: AdvisedTool): Advice[] {
  return propertyNodes(tool.inputSchema)
    .filter((property) => property.required && "default" in property.node)
    .map((property) =>
      adviceAt(
        tool,
        "required-default",
        property.pointer,
        `${JSON.stringify(property.name)} is required and has a default (${preview(property.node["default"])}), which toolguard never fills in: a model that trusts the default fails`,
        `drop the field from "required" (the implementation applies the default), or drop the default; for schemas from zod-style generators, the set's defaultsOptional: true does the first for every tool`,
      ),
    );
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
