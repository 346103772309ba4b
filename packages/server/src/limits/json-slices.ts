/**
 * JSON decoding, encoding and deep copies of large values in slices ({@link Steps}), so that a body or object of
 * megabytes never holds the event loop for one whole `JSON.parse`, `JSON.stringify` or `structuredClone` (each
 * about 100 ms for a ConfigMap of 100,000 keys with its `managedFields` on a busy machine). kube-apiserver decodes
 * and encodes on goroutines that Go's scheduler preempts; here the work is cut at the members of large objects and
 * arrays, and every piece is still done by V8's own parser, serializer or copier, so the results are exactly
 * theirs: the same values, number semantics, duplicate keys (the last one wins, in the first one's place), key
 * order and bytes.
 *
 * Written here because no library does this: streaming JSON parsers (`@streamparser/json` and the like) tokenize
 * in JavaScript, several times slower than `JSON.parse`, with their own number handling and error messages; none
 * splits text at member boundaries for the native parser, nor serializes or copies in steps.
 */
import { setOwn } from '@svc-apiserver/api';
import { runStepsYielding, type Steps } from './turn-budget.js';

/** Text at most this long (characters) is parsed in one piece; members are grouped up to it. */
export const parseSliceChars = 64 * 1024;

/** Values of at most this many members (all levels) are encoded or copied in one piece. */
export const sliceMembers = 4096;

/**
 * Large containers are cut into members only this many levels deep; deeper ones are done whole (a value that is
 * large at every one of thousands of levels would otherwise chain as many generators).
 */
const maxDescent = 64;

/** How many members are handled between two points where the work may yield. */
const membersPerStep = 1024;

/** Thrown by the scanner on text that is no JSON: the caller takes `JSON.parse`'s own error instead. */
class Malformed extends Error {}

/** A parse's outcome: the value, or `JSON.parse`'s error message for the whole text. */
export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipWhitespace(text: string, i: number, end: number): number {
  while (i < end && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** The index after the string starting at `i` (its opening quote). */
function stringEnd(text: string, i: number, end: number): number {
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c /* \ */) j++;
    else if (c === 0x22 /* " */) return j + 1;
  }
  throw new Malformed();
}

/** The index after the value starting at `i` (no whitespace before it). */
function valueEnd(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i, end);
  if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
    let depth = 0;
    for (let j = i; j < end; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = stringEnd(text, j, end) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
    }
    throw new Malformed();
  }
  let j = i;
  while (j < end) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isWhitespace(d)) break;
    j++;
  }
  if (j === i) throw new Malformed();
  return j;
}

/** Parses the value in `text[start, end)` (whitespace trimmed), cutting large containers at their members. */
function* parseRange(text: string, start: number, end: number, depth: number): Steps<unknown> {
  const open = text.charCodeAt(start);
  if (end - start <= parseSliceChars || depth >= maxDescent || (open !== 0x7b && open !== 0x5b)) {
    return JSON.parse(text.slice(start, end)) as unknown;
  }
  const isObject = open === 0x7b;
  const close = isObject ? 0x7d : 0x5d;
  const target: Record<string, unknown> | unknown[] = isObject ? {} : [];
  /** A run of small members, parsed together: from the first member's start to the last one's end. */
  let groupStart = -1;
  let groupEnd = -1;
  const flush = (): void => {
    if (groupStart < 0) return;
    const piece = text.slice(groupStart, groupEnd);
    if (isObject) {
      const parsed = JSON.parse(`{${piece}}`) as Record<string, unknown>;
      for (const key of Object.keys(parsed)) setOwn(target as Record<string, unknown>, key, parsed[key]);
    } else {
      for (const v of JSON.parse(`[${piece}]`) as unknown[]) (target as unknown[]).push(v);
    }
    groupStart = -1;
  };
  let i = skipWhitespace(text, start + 1, end);
  if (text.charCodeAt(i) === close) {
    if (skipWhitespace(text, i + 1, end) !== end) throw new Malformed();
    return target;
  }
  for (;;) {
    const memberStart = i;
    let key = '';
    if (isObject) {
      if (text.charCodeAt(i) !== 0x22) throw new Malformed();
      const keyEnd = stringEnd(text, i, end);
      key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipWhitespace(text, keyEnd, end);
      if (text.charCodeAt(i) !== 0x3a /* : */) throw new Malformed();
      i = skipWhitespace(text, i + 1, end);
    }
    const valueStart = i;
    const valueStop = valueEnd(text, i, end);
    if (valueStop - valueStart > parseSliceChars) {
      flush();
      yield;
      const value = yield* parseRange(text, valueStart, valueStop, depth + 1);
      if (isObject) setOwn(target as Record<string, unknown>, key, value);
      else (target as unknown[]).push(value);
    } else {
      if (groupStart >= 0 && valueStop - groupStart > parseSliceChars) {
        flush();
        yield;
      }
      if (groupStart < 0) groupStart = memberStart;
      groupEnd = valueStop;
    }
    i = skipWhitespace(text, valueStop, end);
    const c = text.charCodeAt(i);
    if (c === close) {
      if (skipWhitespace(text, i + 1, end) !== end) throw new Malformed();
      break;
    }
    if (c !== 0x2c /* , */) throw new Malformed();
    i = skipWhitespace(text, i + 1, end);
  }
  flush();
  return target;
}

/**
 * `JSON.parse(text)` in steps: the same value, or the same error message (malformed text is parsed once more
 * whole for it, so that clients read exactly what a small body would give them).
 */
export function* parseJsonSteps(text: string): Steps<ParsedJson> {
  try {
    const start = skipWhitespace(text, 0, text.length);
    let end = text.length;
    while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
    if (start === end) throw new Malformed();
    return { ok: true, value: yield* parseRange(text, start, end, 0) };
  } catch (e) {
    if (!(e instanceof Malformed) && !(e instanceof SyntaxError)) throw e;
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** True when `value` holds more than `limit` members (object keys and array elements, all levels). */
export function holdsMoreMembers(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  let n = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    // Keys first: an object of 100,000 keys is found large without listing its values (several times the cost).
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    const length = keys?.length ?? (v as unknown[]).length;
    n += length;
    if (n > limit) return true;
    for (let i = 0; i < length; i++) {
      const child: unknown = keys === undefined ? (v as unknown[])[i] : (v as Record<string, unknown>)[keys[i]!];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/** A plain object or array: what JSON decoding makes (others are encoded and copied whole). */
function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The large plain containers of a value, and the keys of its wide objects. Listing the keys of an object of
 * 100,000 keys (a dictionary to V8) costs about as long as a turn may, so each is listed once, by
 * {@link largeParts}, and kept for the walk that encodes or copies it.
 */
interface LargeParts {
  readonly large: WeakSet<object>;
  readonly keys: WeakMap<object, string[]>;
}

/** Where the walk of {@link largeParts} is: a container, its keys (objects), the next member, the members below it. */
interface SizeFrame {
  readonly value: object;
  readonly keys: string[] | undefined;
  readonly length: number;
  next: number;
  size: number;
  readonly parent: SizeFrame | undefined;
}

/**
 * The plain containers of `value` holding more than {@link sliceMembers} members (all levels): those are cut at their
 * members, the others encoded or copied whole. Undefined when `value` itself is not one (it is done whole). One
 * walk, in steps, with an explicit stack: asking each container on the way down would walk the large ones once per
 * level above them.
 */
function* largeParts(value: unknown): Steps<LargeParts | undefined> {
  if (typeof value !== 'object' || value === null || !isPlainContainer(value)) return undefined;
  const parts: LargeParts = { large: new WeakSet(), keys: new WeakMap() };
  const frameOf = (v: object, parent: SizeFrame | undefined): SizeFrame => {
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    const length = keys?.length ?? (v as unknown[]).length;
    if (keys !== undefined && length > membersPerStep) parts.keys.set(v, keys);
    return { value: v, keys, length, next: 0, size: length, parent };
  };
  let frame: SizeFrame | undefined = frameOf(value, undefined);
  let n = 0;
  while (frame !== undefined) {
    if (frame.next < frame.length) {
      const at = frame.next++;
      const child: unknown = frame.keys === undefined ? (frame.value as unknown[])[at] : (frame.value as Record<string, unknown>)[frame.keys[at]!];
      if (++n % membersPerStep === 0) yield;
      if (typeof child === 'object' && child !== null && isPlainContainer(child)) frame = frameOf(child, frame);
      continue;
    }
    if (frame.size > sliceMembers) parts.large.add(frame.value);
    if (frame.parent !== undefined) frame.parent.size += frame.size;
    frame = frame.parent;
  }
  return parts.large.has(value) ? parts : undefined;
}

/** True when `value` is encoded or copied in one piece at this depth. */
function whole(value: unknown, depth: number, parts: LargeParts): boolean {
  return typeof value !== 'object' || value === null || depth >= maxDescent || !parts.large.has(value) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** Appends the JSON of `value` (undefined: nothing, as JSON.stringify leaves such a member out) to `out`. */
function* stringifyInto(value: unknown, out: string[], depth: number, parts: LargeParts): Steps<boolean> {
  if (whole(value, depth, parts)) {
    const s = JSON.stringify(value) as string | undefined;
    if (s === undefined) return false;
    out.push(s);
    return true;
  }
  let n = 0;
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      if (!(yield* stringifyInto(value[i], out, depth + 1, parts))) out.push('null');
      if (++n % membersPerStep === 0) yield;
    }
    out.push(']');
    return true;
  }
  out.push('{');
  let first = true;
  const object = value as Record<string, unknown>;
  for (const key of parts.keys.get(object) ?? Object.keys(object)) {
    const at = out.length;
    out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    if (yield* stringifyInto(object[key], out, depth + 1, parts)) first = false;
    else out.length = at;
    if (++n % membersPerStep === 0) yield;
  }
  out.push('}');
  return true;
}

/**
 * `JSON.stringify(value)` in steps, byte for byte, for values made of plain objects, arrays and primitives (what JSON
 * decoding and the registry make; other objects, and those with `toJSON`, are encoded whole by JSON.stringify).
 */
export function* stringifySteps(value: unknown): Steps<string | undefined> {
  const parts = yield* largeParts(value);
  if (parts === undefined) return JSON.stringify(value) as string | undefined;
  const out: string[] = [];
  yield* stringifyInto(value, out, 0, parts);
  return out.join('');
}

/** A deep copy of `value` as `structuredClone` makes it, large plain containers copied member by member. */
function* cloneValue(value: unknown, depth: number, parts: LargeParts): Steps<unknown> {
  if (whole(value, depth, parts)) return typeof value === 'object' && value !== null ? structuredClone(value) : value;
  let n = 0;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      // A hole stays a hole, as structuredClone keeps it.
      if (i in value) copy[i] = yield* cloneValue(value[i], depth + 1, parts);
      if (++n % membersPerStep === 0) yield;
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const key of parts.keys.get(object) ?? Object.keys(object)) {
    setOwn(copy, key, yield* cloneValue(object[key], depth + 1, parts));
    if (++n % membersPerStep === 0) yield;
  }
  return copy;
}

/** `structuredClone(value)` in steps, for values made of plain objects, arrays and primitives (as decoded JSON). */
export function* cloneSteps<T>(value: T): Steps<T> {
  const parts = yield* largeParts(value);
  if (parts === undefined) return typeof value === 'object' && value !== null ? structuredClone(value) : value;
  return (yield* cloneValue(value, 0, parts)) as T;
}

/** `JSON.stringify(value)`, a large value in slices that give the event loop back between them. */
export function stringifyYielding(value: unknown): Promise<string | undefined> {
  return runStepsYielding(stringifySteps(value));
}

/** `structuredClone(value)`, a large value copied in slices that give the event loop back between them. */
export function cloneYielding<T>(value: T): Promise<T> {
  return runStepsYielding(cloneSteps(value));
}
