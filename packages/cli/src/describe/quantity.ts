/**
 * Resource quantities as kubectl's describers compute with them (k8s.io/apimachinery's resource.Quantity): parsed
 * exactly, summed and compared, printed in the canonical form of `Quantity.String()` (`0.5` → `500m`, `1024Mi` →
 * `1Gi`, `1.5Gi` → `1536Mi`), and read as whole units or thousandths rounded up (`Value()`, `MilliValue()`) for
 * the percentages of a node's allocated resources. Written by hand: npm's quantity helpers compute in floating
 * point and have no canonical form.
 *
 * A value is held as a count of nano-units; finer fractions round up to the next one, as kube's parsing does.
 */

/** How a quantity prints (resource.Format). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact quantity. */
export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nano: bigint;
  readonly format: QuantityFormat;
}

/** The zero quantity a missing entry of a resource list reads as. */
export const zeroQuantity: Quantity = { nano: 0n, format: 'DecimalSI' };

const decimalExponents: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExponents: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const syntax = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+|[numkMGTPE])?$/;

/** Parses a quantity (its string form, or a JSON number); undefined when it is none. */
export function parseQuantity(input: unknown): Quantity | undefined {
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : typeof input === 'string' ? input.trim() : undefined;
  const m = text === undefined ? null : syntax.exec(text);
  if (m === null) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let format: QuantityFormat = 'DecimalSI';
  // the value is digits × 10^exp10 × 2^exp2
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (suffix in binaryExponents) {
    format = 'BinarySI';
    exp2 = binaryExponents[suffix] ?? 0;
  } else if (/^[eE]./.test(suffix)) {
    format = 'DecimalExponent';
    exp10 += Number(suffix.slice(1));
  } else {
    exp10 += decimalExponents[suffix] ?? 0;
  }
  let numerator = BigInt(`${whole}${fraction}` || '0') * 2n ** BigInt(exp2);
  let denominator = 1n;
  const nanoExp = exp10 + 9;
  if (nanoExp >= 0) numerator *= 10n ** BigInt(nanoExp);
  else denominator = 10n ** BigInt(-nanoExp);
  // kube rounds values finer than its precision up, away from zero
  const nano = (numerator + denominator - 1n) / denominator;
  return { nano: sign === '-' ? -nano : nano, format };
}

/** A resource list's entry as a quantity (zero when absent or malformed, as a missing map entry reads in Go). */
export function quantityOf(list: unknown, name: string): Quantity {
  const v = typeof list === 'object' && list !== null ? (list as Record<string, unknown>)[name] : undefined;
  return parseQuantity(v) ?? zeroQuantity;
}

/** `a + b` (Quantity.Add: the sum keeps a's format unless a is zero). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n ? b.format : a.format };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` (Quantity.Cmp). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** Divides rounding towards positive infinity, as Quantity.Value and MilliValue round. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : a / b);

/** Whole units, rounded up (Quantity.Value). */
export function quantityValue(q: Quantity): bigint {
  return ceilDiv(q.nano, 1_000_000_000n);
}

/** Thousandths, rounded up (Quantity.MilliValue). */
export function quantityMilliValue(q: Quantity): bigint {
  return ceilDiv(q.nano, 1_000_000n);
}

/** A quantity of whole units in a format (resource.NewQuantity). */
export function unitQuantity(units: bigint, format: QuantityFormat): Quantity {
  return { nano: units * 1_000_000_000n, format };
}

/** The canonical text of a quantity (Quantity.String). */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const sign = q.nano < 0n ? '-' : '';
  const abs = q.nano < 0n ? -q.nano : q.nano;
  // binary quantities print base-1024 when they are whole and at least 1Ki; others fall back to DecimalSI
  if (q.format === 'BinarySI' && abs >= 1024n * 1_000_000_000n && abs % 1_000_000_000n === 0n) {
    let units = abs / 1_000_000_000n;
    let power = 0;
    while (units % 1024n === 0n && power < 6) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][power] ?? ''}`;
  }
  let mantissa = abs;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  // the exponent goes down to a multiple of three
  const extra = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(extra);
  exponent -= extra;
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  // E is the largest decimal suffix
  for (; exponent > 18; exponent -= 3) mantissa *= 1000n;
  return `${sign}${mantissa}${Object.keys(decimalExponents).find((k) => decimalExponents[k] === exponent) ?? ''}`;
}

/** The canonical text of a quantity value as it appears in an object; the text itself when it is no quantity. */
export function canonicalQuantity(value: unknown): string {
  const q = parseQuantity(value);
  return q === undefined ? String(value ?? '') : formatQuantity(q);
}
