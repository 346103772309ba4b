/**
 * The JSON conventions of apimachinery the generated encoders and decoders follow where a message's JSON form is
 * not an object of its fields, or a JSON value is not of its field's type: numbers from numeric strings and
 * booleans, `bytes` as base64, Time and MicroTime as RFC 3339 text, Duration as Go duration
 * text, RawExtension / FieldsV1 / apiextensions JSON as embedded JSON text (read back by the wire reader), map
 * keys set as own properties. Times are parsed and printed through small caches: the objects of a list share most of
 * their timestamps.
 */
import { formatGoDuration } from '@svc-apiserver/api';
import { formatMicroTime, formatTime, parseGoDuration, parseRfc3339, type Instant } from './go-time.js';

/** A JSON value as a number field's value: numbers, numeric text and booleans convert, anything else is 0. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

const noBytes = Buffer.alloc(0);

/** A JSON value as a bytes field's value: base64 text decoded, bytes as they are, anything else empty. */
export function toBytes(v: unknown): Uint8Array {
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  return v instanceof Uint8Array ? v : noBytes;
}

/**
 * A value as embedded JSON text (written as the bytes of a raw field); integers decoded as `bigint` (beyond 2^53)
 * are written as numbers.
 */
export function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  }
  return text ?? '';
}

/** A cache of at most `size` entries, emptied when full (cheap, and enough for the repeats of one list). */
class SmallCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly size: number) {}
  get(k: K): V | undefined {
    return this.map.get(k);
  }
  set(k: K, v: V): V {
    if (this.map.size >= this.size) this.map.clear();
    this.map.set(k, v);
    return v;
  }
}

const parsedTimes = new SmallCache<string, Instant | null>(1024);

/** RFC 3339 text as seconds and nanoseconds; undefined when it is not RFC 3339 (the field is then left out). */
export function parseTime(text: unknown): Instant | undefined {
  if (typeof text !== 'string') return undefined;
  let t = parsedTimes.get(text);
  if (t === undefined) t = parsedTimes.set(text, parseRfc3339(text) ?? null);
  return t ?? undefined;
}

const printedTimes = new SmallCache<number, string>(1024);

/** `metav1.Time` JSON of a Timestamp; undefined for the zero time (how Go writes an unset time). */
export function timeJson(seconds: number, nanos: number): string | undefined {
  if (seconds === 0 && nanos === 0) return undefined;
  return printedTimes.get(seconds) ?? printedTimes.set(seconds, formatTime({ seconds, nanos: 0 }));
}

/** `metav1.MicroTime` JSON of a Timestamp; undefined for the zero time. */
export function microTimeJson(seconds: number, nanos: number): string | undefined {
  if (seconds === 0 && nanos === 0) return undefined;
  return formatMicroTime({ seconds, nanos });
}

/** Go duration text as nanoseconds; undefined when malformed (the field is then left out). */
export function parseDuration(text: unknown): number | undefined {
  return typeof text === 'string' ? parseGoDuration(text) : undefined;
}

/** `metav1.Duration` JSON. */
export const durationJson = formatGoDuration;

/** Sets a map entry as an own property (`__proto__` included, as JSON.parse makes it). */
export function setEntry(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}
