/**
 * Resource quantities as apimachinery's resource.ParseQuantity reads them (`1Gi`, `500m`, `1e3`, `+2`), turned into
 * a number for the comparisons validation makes (positive, not below the previous value, requests not above
 * limits). Hand-written: no npm package parses Kubernetes quantities, and validation needs only the value.
 */

const pattern = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const suffixes: Readonly<Record<string, number>> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
};

/** The value of a quantity (a string, or a JSON number as kube also accepts), or undefined when it does not parse. */
export function quantityValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = pattern.exec(value);
  if (m === null) return undefined;
  const base = Number(m[1]);
  const suffix = m[2];
  if (suffix === undefined) return base;
  if (suffix[0] === 'e' || suffix[0] === 'E') return base * 10 ** Number(suffix.slice(1));
  return base * suffixes[suffix]!;
}

/** The message kube's quantity unmarshaling gives for a malformed quantity. */
export const quantityFormatMessage = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
