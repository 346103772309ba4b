/**
 * Go's fmt printing of a JSON value decoded into `interface{}` (what apimachinery's JSON decoding makes of a custom
 * object: `map[string]interface {}`, `[]interface {}`, `int64` for integral numbers, `float64` for the others,
 * `string`, `bool`, `nil`), for messages that print such values as kube-apiserver prints them. Written here because
 * no library prints JavaScript values the way Go's fmt and strconv do.
 */

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** strconv.Quote: double quotes, printable characters kept, the rest escaped as Go escapes them. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (printable.test(ch)) out += ch;
    else if (code === 0x07) out += '\\a';
    else if (code === 0x08) out += '\\b';
    else if (code === 0x0c) out += '\\f';
    else if (code === 0x0a) out += '\\n';
    else if (code === 0x0d) out += '\\r';
    else if (code === 0x09) out += '\\t';
    else if (code === 0x0b) out += '\\v';
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** True when JSON decoding into `interface{}` makes `n` an int64 (an integral number within int64's range). */
function isInt64(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/**
 * `%v` of a float64: strconv's shortest `%g`, the exponent form when the exponent is below -4 or at least 6, with at
 * least two exponent digits (`1e+06`, `1.5e-07`).
 */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  // toExponential() gives the shortest digits that read back as `n`, as strconv's shortest formatting does.
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** `%v` of the number JSON decoding makes of `n`: an int64 in decimal, else a float64 ({@link goFloat}). */
export function goNumber(n: number): string {
  return isInt64(n) ? String(n) : goFloat(n);
}

/** `%#v` of an `interface{}` holding the decoded value (maps with their keys sorted, as fmt prints maps). */
export function goSharpV(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSharpV).join(', ')}}`;
  if (typeof value === 'object') {
    const map = value as Record<string, unknown>;
    const entries = Object.keys(map).sort().map((k) => `${goQuote(k)}:${goSharpV(map[k])}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return String(value);
}

/**
 * A decoded value as field.Error prints a bad value (ErrorBody): `null` for nil, numbers and booleans with `%v`,
 * strings with `%q`, maps and lists with `%#v` (`map[string]interface {}{"a":1}`, `[]interface {}{"x", 1.5}`).
 */
export function goBadValue(value: unknown): string {
  return value === null || value === undefined ? 'null' : goSharpV(value);
}
