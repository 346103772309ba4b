/**
 * Resource quantities (k8s.io/apimachinery/pkg/api/resource.Quantity): parsing of `100m`, `1.5Gi`, `2e3` and JSON
 * numbers, exact arithmetic and comparison, and the canonical form `String()` prints (`1000m` → `1`, `1536Mi`,
 * `0.1` → `100m`). Hand-written: the npm quantity helpers convert to floating point and have no canonical form,
 * and LimitRanger's and ResourceQuota's messages print quantities as kube does.
 *
 * A quantity is held as an exact count of nano-units (10^-9); finer fractions round up to the next nano-unit, as
 * kube's parsing does. The format of the parsed text (binary suffix, decimal suffix or exponent) is kept for
 * printing.
 */

/** How a quantity prints (resource.Format). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact quantity. */
export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nano: bigint;
  readonly format: QuantityFormat;
}

const nanoPerUnit = 1_000_000_000n;

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const grammar = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE]))?$/;

/** 10^n as a bigint. */
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Divides rounding away from zero (kube rounds parsed values up). */
function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : q + (a > 0n ? 1n : -1n);
}

/** Parses a quantity (a string in quantity syntax, or a JSON number); undefined when it is not one. */
export function parseQuantity(value: unknown): Quantity | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const m = grammar.exec(text);
  if (m === null) {
    // JSON numbers like 1e-7 print in exponent form without the sign rules of the grammar.
    if (typeof value === 'number') return parseQuantity(value.toFixed(9));
    return undefined;
  }
  const negative = m[1] === '-';
  const [whole, fraction = ''] = m[2]!.split('.');
  const digits = BigInt(`${whole || '0'}${fraction}`);
  const scale = -fraction.length;
  let nano: bigint;
  let format: QuantityFormat;
  if (m[4] !== undefined) {
    format = 'BinarySI';
    const factor = 2n ** BigInt(binarySuffixes[m[4]]!);
    nano = divCeil(digits * factor * nanoPerUnit, pow10(-scale));
  } else {
    const exponent = m[3] !== undefined ? Number(m[3].slice(1)) : decimalSuffixes[m[5] ?? '']!;
    format = m[3] !== undefined ? 'DecimalExponent' : 'DecimalSI';
    if (Math.abs(exponent) > 60) return undefined;
    const shift = scale + exponent + 9;
    nano = shift >= 0 ? digits * pow10(shift) : divCeil(digits, pow10(-shift));
  }
  return { nano: negative ? -nano : nano, format };
}

/** The zero quantity. */
export const zeroQuantity: Quantity = { nano: 0n, format: 'DecimalSI' };

/** a + b, in a's format (Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.nano === 0n && a.format === 'DecimalSI' ? b.format : a.format };
}

/** a - b, in a's format (Quantity.Sub). */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.format };
}

/** -1, 0 or 1 as a is less than, equal to or greater than b (Quantity.Cmp). */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** The value in thousandths, rounded up (Quantity.MilliValue). */
export function milliValue(q: Quantity): bigint {
  return divCeil(q.nano, 1_000_000n);
}

/** The value in whole units, rounded up (Quantity.Value). */
export function unitValue(q: Quantity): bigint {
  return divCeil(q.nano, nanoPerUnit);
}

/** A quantity of `n` whole units. */
export function quantityOf(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nano: BigInt(n) * nanoPerUnit, format };
}

/** The canonical form (Quantity.String). */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const sign = q.nano < 0n ? '-' : '';
  const abs = q.nano < 0n ? -q.nano : q.nano;
  let format = q.format;
  // A binary quantity below 1024 or with a fraction prints in decimal form, as kube's CanonicalizeBytes does.
  if (format === 'BinarySI' && (abs < 1024n * nanoPerUnit || abs % nanoPerUnit !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let units = abs / nanoPerUnit;
    let power = 0;
    while (power < 60 && units % 1024n === 0n) {
      units /= 1024n;
      power += 10;
    }
    const suffix = Object.entries(binarySuffixes).find(([, p]) => p === power)?.[0] ?? '';
    return `${sign}${units}${suffix}`;
  }
  // The largest exponent (a multiple of 3, from -9) whose mantissa is whole.
  let mantissa = abs;
  let exponent = -9;
  while (exponent < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  if (format === 'DecimalExponent') return `${sign}${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  const suffix = Object.entries(decimalSuffixes).find(([, p]) => p === exponent)?.[0] ?? '';
  return `${sign}${mantissa}${suffix}`;
}

/** The canonical form of a quantity given as text or number; the input itself when it does not parse. */
export function canonicalQuantity(value: unknown): string {
  const q = parseQuantity(value);
  return q === undefined ? String(value) : formatQuantity(q);
}
