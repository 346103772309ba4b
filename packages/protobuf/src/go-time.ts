/**
 * The JSON forms of apimachinery's time types, as Go prints and parses them: `metav1.Time` is RFC 3339 in UTC with
 * whole seconds, `metav1.MicroTime` RFC 3339 with exactly six fractional digits, `metav1.Duration` Go's
 * `time.Duration` text (`1h2m3.5s`). Written by hand: JavaScript has no Go duration format and `Date` keeps only
 * milliseconds.
 */
import { parseGoDuration as parseDuration } from '@svc-apiserver/api';

/** Seconds and nanoseconds since the epoch (the `Timestamp` shape of the Time messages). */
export interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

const rfc3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** Parses RFC 3339 text (any fraction precision); undefined when it is not one. */
export function parseRfc3339(text: string): Instant | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (!Number.isFinite(ms)) return undefined;
  return { seconds: Math.floor(ms / 1000), nanos: m[2] ? Number(m[2].padEnd(9, '0')) : 0 };
}

function utcSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** `metav1.Time` JSON: `2006-01-02T15:04:05Z`. */
export function formatTime(t: Instant): string {
  return `${utcSeconds(t.seconds)}Z`;
}

/** `metav1.MicroTime` JSON: `2006-01-02T15:04:05.000000Z`. */
export function formatMicroTime(t: Instant): string {
  return `${utcSeconds(t.seconds)}.${String(Math.floor(t.nanos / 1000)).padStart(6, '0')}Z`;
}


/** Parses Go duration text (`300ms`, `-1.5h`, `2h45m`) into nanoseconds; undefined when malformed. */
export function parseGoDuration(text: string): number | undefined {
  const parsed = parseDuration(text);
  return parsed.ok ? Math.round(parsed.value * 1e6) : undefined;
}
