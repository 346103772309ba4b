/**
 * Go's `time.ParseDuration`, with its error messages: a signed sequence of decimal numbers, each with a unit
 * (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`), or `0`. kube-apiserver reads the `timeout` query parameter and
 * its duration flags with it, so the same texts are accepted and refused the same way.
 */
import { fail, ok, type Result } from './result.js';

/** A parsed duration in milliseconds, or Go's error text (`time: invalid duration "x"`). */
export type GoDuration = Result<number, string>;

const unitMs: Readonly<Record<string, number>> = {
  ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000,
};

/** Go's strconv.Quote of the input, as the messages print it (close enough: JSON escapes are Go's for text). */
const quote = (s: string): string => JSON.stringify(s);

/** Parses a Go duration. */
export function parseGoDuration(text: string): GoDuration {
  const invalid = (): GoDuration => fail(`time: invalid duration ${quote(text)}`);
  let s = text;
  let negative = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return ok(0);
  if (s === '') return invalid();
  let total = 0;
  const step = /^(\d*)(?:\.(\d*))?/;
  while (s !== '') {
    const m = step.exec(s)!;
    const whole = m[1] ?? '';
    const fraction = m[2];
    if (whole === '' && (fraction === undefined || fraction === '')) return invalid();
    s = s.slice(m[0].length);
    let unitEnd = 0;
    while (unitEnd < s.length && s[unitEnd] !== '.' && !(s[unitEnd]! >= '0' && s[unitEnd]! <= '9')) unitEnd++;
    if (unitEnd === 0) return fail(`time: missing unit in duration ${quote(text)}`);
    const unit = s.slice(0, unitEnd);
    const factor = unitMs[unit];
    if (factor === undefined) return fail(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    s = s.slice(unitEnd);
    total += Number(`${whole === '' ? '0' : whole}.${fraction ?? ''}`) * factor;
    // Go's int64 nanoseconds overflow at about 292 years.
    if (total > 9_223_372_036_854) return invalid();
  }
  return ok(negative ? -total : total);
}

function trimFraction(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, '');
}

/** Go's `time.Duration.String()` for nanoseconds. */
export function formatGoDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  let n = Math.abs(nanos);
  if (n < 1e3) return `${sign}${n}ns`;
  if (n < 1e6) return `${sign}${trimFraction(n / 1e3, 3)}µs`;
  if (n < 1e9) return `${sign}${trimFraction(n / 1e6, 6)}ms`;
  let out = '';
  const hours = Math.floor(n / 3600e9);
  n -= hours * 3600e9;
  const minutes = Math.floor(n / 60e9);
  n -= minutes * 60e9;
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  out += `${trimFraction(n / 1e9, 9)}s`;
  return sign + out;
}
