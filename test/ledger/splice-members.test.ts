// The ledger writes a call's arguments as its raw text with the top-level reference fields
// swapped for their identifiers (json/top-level-members.ts): the text must parse to the same
// value as removing and adding those properties on the parsed text.
import { describe, expect, it } from "vitest";
import { spliceMembers } from "../../templates/runtime/json/top-level-members.ts";

function expected(text: string, drop: readonly string[], add: Record<string, string>): unknown {
  const value = JSON.parse(text) as Record<string, unknown>;
  for (const key of drop) delete value[key];
  return { ...value, ...add };
}

describe("spliceMembers", () => {
  const cases: [string, string][] = [
    ["compact", '{"customer_ref":"Acme BV","amount":5}'],
    ["spaced and tabbed", '  { "amount" :\t5 , "customer_ref" : "Acme" ,"memo": "x" }  '],
    ["last member dropped", '{"amount":5,"customer_ref":"Acme"}'],
    ["only member dropped", '{"customer_ref":"Acme"}'],
    ["nested values with braces and quotes in strings", '{"a":{"b":[1,{"c":"}],{\\"x"}]},"customer_ref":"A\\"c}me","d":[[],{}],"e":"\\\\"}'],
    ["scalars of every kind", '{"n":-1.5e3,"t":true,"f":false,"z":null,"customer_ref":"q","s":"\\u2028"}'],
    ["duplicate keys", '{"customer_ref":"a","x":1,"customer_ref":"b","x":2}'],
    ["the target already sent", '{"customer_id":"cus_999","customer_ref":"Acme"}'],
    ["the key again as a value and nested, kept there", '{"customer_ref":"a","note":"customer_ref","n":{"customer_ref":1},"m":["customer_ref"]}'],
    ["the rest kept whole after the last dropped key", '{"customer_ref":"a" , "x":{"y":[1,2,{"z":"}"}]},"w":"\\\\"  }'],
    ["empty", "{}"],
    ["__proto__ kept as an own key", '{"__proto__":{"admin":true},"customer_ref":"Acme"}'],
  ];
  for (const [name, text] of cases) {
    it(`gives the parsed value: ${name}`, () => {
      const spliced = spliceMembers(text, new Set(["customer_ref"]), '"customer_id":"cus_1"');
      expect(spliced).toBeDefined();
      expect(JSON.parse(spliced as string)).toEqual(JSON.parse(JSON.stringify(expected(text, ["customer_ref"], { customer_id: "cus_1" }))));
      if (text.includes("__proto__")) expect(Object.keys(JSON.parse(spliced as string))).toContain("__proto__");
    });
  }

  it("declines what it cannot splice on one line or without decoding", () => {
    const drop = new Set(["customer_ref"]);
    expect(spliceMembers('{"customer_ref":\n"Acme"}', drop, '"customer_id":"c"')).toBeUndefined();
    expect(spliceMembers('{"customer\\u005fref":"Acme"}', drop, '"customer_id":"c"')).toBeUndefined();
    expect(spliceMembers('["customer_ref"]', drop, '"customer_id":"c"')).toBeUndefined();
  });
});
