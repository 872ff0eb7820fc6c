// Advice for a number written as text: formatted ("1,299.00", "$5", "1.299,00 €"), marked
// ("#1234", "~30"), with a unit or a word around it ("20 lines", "page 2") or spelled out
// ("five"). The guess is shown to the model as a suggestion it must confirm by resending; it is
// never applied.

const CURRENCY = /[$€£¥₹]|\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD)\b/gi;
const GROUPED_DOT = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const GROUPED_COMMA = /^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const PLAIN = /^[+-]?\d+(?:\.\d+)?$/;
/** One number with a mark before it or words around it: `#12`, `~30`, `20 lines`, `page 2`, `10MB`. */
// A degree sign or a unit symbol (`45°`, `20 °C`, `5 m²`) is a unit like a word.
const WORDED = /^(?:[#~≈]|no\.?\s*|[a-z]+\s+)?([+-]?\d+(?:\.\d+)?)\s*((?:[a-z%°º²³µ]|\u00b5)+(?:[\s-][a-z]+)*)?\.?$/i;
/** Units whose number means something else in another unit: the model is told to check. */
const SCALED =
  /^(?:k|kb|mb|gb|tb|b|bytes?|%|percent|thousand|million|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|°?[cfk]|kg|g|lbs?|km|m|mi|cm|mm)$/i;
const WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

export interface NumberSuggestion {
  /** The number as JSON text. */
  readonly value: string;
  /** What to leave out, for the message ("no thousands separators, no currency symbols"). */
  readonly dropped: string;
  /** A caution when the text named a unit the field may not count in; "" otherwise. */
  readonly caution: string;
}

/** The number `text` most plausibly spells, or `undefined` when unclear. */
export function suggestNumber(text: string): NumberSuggestion | undefined {
  const formatted = formattedNumber(text);
  if (formatted !== undefined) return { value: formatted, dropped: "no thousands separators, no currency symbols", caution: "" };
  const trimmed = text.trim();
  const word = WORDS[trimmed.toLowerCase()];
  if (word !== undefined) return { value: String(word), dropped: "in digits", caution: "" };
  const match = WORDED.exec(trimmed);
  if (match === null) return undefined;
  const n = Number(match[1]);
  if (!Number.isFinite(n)) return undefined;
  const unit = match[2];
  const caution = unit !== undefined && SCALED.test(unit) ? ` (only if this field counts in ${unit}; otherwise convert it first)` : "";
  return { value: JSON.stringify(n), dropped: "no marks or words around it", caution };
}

function formattedNumber(text: string): string | undefined {
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
