// A million unknown keys are a million ajv errors. The explainer must look at only the first few
// hundred and count the rest: this is what keeps such a call cheap, held here by counting which
// errors are read rather than by a clock (the time itself is `npm run bench`'s concern).
import { describe, expect, it } from "vitest";
import type { AjvError } from "../../templates/runtime/contract/tool-spec.ts";
import { explainSchemaErrors } from "../../templates/runtime/explain/explain.ts";

describe("explaining a flood of errors", () => {
  it("reads only the first few hundred of a million ajv errors and counts the rest", () => {
    const all: AjvError[] = Array.from({ length: 1_000_000 }, (_, i) => ({
      instancePath: "",
      schemaPath: "#/additionalProperties",
      keyword: "additionalProperties",
      params: { additionalProperty: `k${i}` },
      message: "must NOT have additional properties",
    }));
    const read = new Set<number>();
    const watched = new Proxy(all, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) read.add(Number(key));
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const explained = explainSchemaErrors(watched, { name: "n" }, {}, 20);
    expect(explained.length).toBeLessThanOrEqual(21);
    expect(explained.at(-1)?.message).toMatch(/more/);
    expect(read.size).toBeGreaterThan(0);
    expect(read.size).toBeLessThanOrEqual(1000);
  });
});
