/**
 * Money of orders and refunds (§2.4: `BigDecimal`) as decimal STRINGS, summed and compared in
 * integer minor units (bigint): 0.1 + 0.2 is 0.30 here, never 0.30000000000000004.
 *
 * The console takes amounts with at most 2 decimals (cents/fen; §2.4 shows no scale, and a third
 * decimal has no meaning for the currencies of the platform's market) and at most 13 integer
 * digits. Why 13: the amount reaches the platform as a JSON number (the proxy's `decimal` schema),
 * and 15 significant digits are what every JSON number carries exactly, so the platform receives
 * the digits typed.
 */

export const MONEY_SCALE = 2;
export const MONEY_INTEGER_DIGITS = 13;
const SCALE_FACTOR = 10n ** BigInt(MONEY_SCALE);

export type MoneyProblem = "invalid" | "tooManyDecimals" | "tooLarge" | "negative";
export type MoneyParse = { ok: true; minor: bigint } | { ok: false; problem: MoneyProblem };

const TYPED = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * An amount as typed: digits with an optional point (`12`, `12.5`, `.5`, `1,234.50` with grouping
 * commas); refused: more than 2 decimals, more than 13 integer digits, a sign of minus, anything else.
 */
export function parseMoney(text: string): MoneyParse {
  const cleaned = text.trim().replace(/,(?=\d{3}(?:\D|$))/g, "");
  const match = TYPED.exec(cleaned);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return { ok: false, problem: "invalid" };
  const [, sign, whole = "", fraction = ""] = match;
  if (fraction.length > MONEY_SCALE) return { ok: false, problem: "tooManyDecimals" };
  const integer = whole.replace(/^0+(?=\d)/, "");
  if (integer.length > MONEY_INTEGER_DIGITS) return { ok: false, problem: "tooLarge" };
  const minor = BigInt(integer || "0") * SCALE_FACTOR + BigInt(fraction.padEnd(MONEY_SCALE, "0") || "0");
  if (sign === "-" && minor !== 0n) return { ok: false, problem: "negative" };
  return { ok: true, minor };
}

/** Minor units as the canonical decimal string with 2 decimals: `1999n` → `"19.99"`. */
export function formatMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / SCALE_FACTOR;
  const fraction = (abs % SCALE_FACTOR).toString().padStart(MONEY_SCALE, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** A typed amount in canonical form (`"1,234.5"` → `"1234.50"`), or undefined when it is not one. */
export function normalizeMoney(text: string): string | undefined {
  const parsed = parseMoney(text);
  return parsed.ok ? formatMinor(parsed.minor) : undefined;
}

export function sumMinor(values: readonly bigint[]): bigint {
  return values.reduce((a, b) => a + b, 0n);
}

/** Unit price × quantity, exactly: `19.99 × 3` = `59.97`. */
export function timesQty(minor: bigint, qty: number): bigint {
  if (!Number.isSafeInteger(qty)) throw new RangeError("qty must be an integer");
  return minor * BigInt(qty);
}

/**
 * A platform amount (a JSON number, or a numeric string) as an exact decimal string: the digits of
 * the number's shortest form, exponent notation expanded (`1e-7` → `"0.0000001"`, `1e21` →
 * `"1000000000000000000000"`). Undefined for null, empty or non-numeric values.
 */
export function decimalText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === "bigint") return value.toString();
  else if (typeof value === "string") text = value.trim();
  else return undefined;
  const m = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole = "", fraction = "", exponent = "0"] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  let out: string;
  if (point <= 0) out = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  out = out.replace(/^0+(?=\d)/, "");
  if (out.includes(".")) out = out.replace(/0+$/, "").replace(/\.$/, "");
  return sign === "-" && /[1-9]/.test(out) ? `-${out}` : out;
}

/**
 * A platform amount in minor units when it has at most 2 decimals (what the console can compute
 * with exactly); undefined otherwise.
 */
export function minorOf(value: unknown): bigint | undefined {
  const text = decimalText(value);
  if (text === undefined) return undefined;
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace(/^-/, "").split(".");
  if (fraction.length > MONEY_SCALE) return undefined;
  const minor = BigInt(whole) * SCALE_FACTOR + BigInt(fraction.padEnd(MONEY_SCALE, "0"));
  return negative ? -minor : minor;
}

/** The text a form field starts with for a platform amount (`12.5` → `"12.50"`, `12.345` → `"12.345"`). */
export function moneyInputOf(value: unknown): string {
  const minor = minorOf(value);
  if (minor !== undefined) return formatMinor(minor);
  return decimalText(value) ?? "";
}

/**
 * An amount for display with grouping, exactly (Intl formats the decimal STRING, no float on the
 * way): `"1234567.5"` → `"1,234,567.50"`; `currency` is the order's symbol (§2.4 `currency`).
 */
export function formatMoney(value: unknown, locale: string, currency?: string | null): string {
  const text = decimalText(value);
  if (text === undefined) return "";
  const decimals = Math.max(MONEY_SCALE, (text.split(".")[1] ?? "").length);
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) as Intl.NumberFormat & {
    format(value: string): string;
  };
  const shown = format.format(text as unknown as number);
  return currency ? `${currency} ${shown}` : shown;
}
