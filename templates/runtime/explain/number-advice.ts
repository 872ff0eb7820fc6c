// Advice for a number written as formatted text ("1,299.00", "$5", "1.299,00 €"). The guess is
// shown to the model as a suggestion it must confirm by resending; it is never applied.

const CURRENCY = /[$€£¥₹]|\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD)\b/gi;
const GROUPED_DOT = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const GROUPED_COMMA = /^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const PLAIN = /^[+-]?\d+(?:\.\d+)?$/;

/** The number `text` most plausibly spells, as JSON text, or `undefined` when unclear. */
export function suggestNumber(text: string): string | undefined {
  const bare = text.replace(CURRENCY, "").replace(/[\s\u00a0'_]/g, "");
  let numeral: string | undefined;
  if (GROUPED_DOT.test(bare)) numeral = bare.replaceAll(",", "");
  else if (GROUPED_COMMA.test(bare)) numeral = bare.replaceAll(".", "").replace(",", ".");
  else if (DECIMAL_COMMA.test(bare)) numeral = bare.replace(",", ".");
  else if (PLAIN.test(bare)) numeral = bare;
  if (numeral === undefined) return undefined;
  const n = Number(numeral);
  return Number.isFinite(n) ? JSON.stringify(n) : undefined;
}
