/**
 * Request body decoding: JSON and YAML documents, read the way kube-apiserver reads them, within bounds.
 *
 * JSON is refused past the nesting limit before it is parsed (a linear scan of the text), and numbers a double
 * cannot hold are refused as Go's decoder refuses them. Duplicate fields are reported for field validation as
 * sigs.k8s.io/json's strict decoder names them (`duplicate field "spec.replicas"`, the full path); the last value
 * of a duplicated key wins, as in Go. YAML is read in decode-yaml.ts; a YAML body that is JSON text (kubectl's
 * server-side apply sends JSON as `application/apply-patch+yaml`) is read by the JSON parser when that gives the
 * same value, which is much faster on large bodies.
 */
import { badRequest, type Fail, type Ok, type Status } from '@svc-apiserver/api';
import { nestingTooDeepMessage, scanJsonText } from '../limits/nesting-depth.js';
import type { DecodeResult } from './decode-result.js';
import { decodeYaml as decodeYamlText } from './decode-yaml.js';
import { parseJsonSteps } from '../limits/json-slices.js';
import { largeObjectChars, runSteps, runStepsYielding, type Steps } from '../limits/turn-budget.js';

export type { DecodeResult } from './decode-result.js';

/** Media types decoded as JSON text. */
export const jsonBodyMediaTypes: ReadonlySet<string> = new Set([
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
]);
/** Media types decoded as YAML text. */
export const yamlBodyMediaTypes: ReadonlySet<string> = new Set(['application/yaml', 'application/apply-patch+yaml']);

/** How many values the walks over a decoded body visit between two points where they may yield. */
const valuesPerStep = 4096;

/** True when a decoded JSON value holds a number a double cannot (JSON.parse makes those infinite). */
function* holdsInfinity(value: unknown): Steps<boolean> {
  const stack = [value];
  let n = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    if (typeof v === 'object' && v !== null) for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    if (++n % valuesPerStep === 0) yield;
  }
  return false;
}

/** The own keys of every object in a parsed value. */
function* countKeys(value: unknown): Steps<number> {
  const stack = [value];
  let keys = 0;
  let n = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    // Keys, then each value: Object.values of an object of 100,000 keys costs V8 several times as much.
    const own = Array.isArray(v) ? undefined : Object.keys(v);
    const length = own?.length ?? (v as unknown[]).length;
    if (own !== undefined) keys += length;
    for (let i = 0; i < length; i++) {
      const child: unknown = own === undefined ? (v as unknown[])[i] : (v as Record<string, unknown>)[own[i]!];
      if (typeof child === 'object' && child !== null) stack.push(child);
      if (++n % valuesPerStep === 0) yield;
    }
  }
  return keys;
}

/** Parsed JSON text, and what the bounds found in it. */
type ParsedJsonText = (Ok<unknown> & { readonly longInteger: boolean; readonly duplicates: boolean }) | Fail<Status>;

/** Parses JSON text within the bounds; the value, or the Status to answer. In steps: large texts in slices. */
function* parseJsonText(text: string): Steps<ParsedJsonText> {
  const scan = scanJsonText(text);
  if (scan.tooDeep) return { ok: false, error: badRequest(nestingTooDeepMessage()) };
  const parsed = yield* parseJsonSteps(text);
  if (!parsed.ok) return { ok: false, error: badRequest(`json parse error: ${parsed.message}`) };
  const value = parsed.value;
  if (scan.hugeNumber && (yield* holdsInfinity(value))) {
    return { ok: false, error: badRequest('json: cannot unmarshal number into Go value of type float64: value out of range') };
  }
  // JSON.parse keeps one of each duplicated key: a value with as many keys as the text has none.
  return { ok: true, value, longInteger: scan.longInteger, duplicates: (yield* countKeys(value)) !== scan.keys };
}

/** Decodes a JSON body, in steps (see {@link decodeJson}, {@link decodeJsonYielding}). */
function* decodeJsonSteps(body: Buffer): Steps<DecodeResult> {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, error: badRequest('the request body is empty: expected a JSON document') };
  const parsed = yield* parseJsonText(text);
  if (!parsed.ok) return parsed;
  const duplicateFields = parsed.duplicates ? findDuplicateJsonFields(text).map((p) => `duplicate field "${p}"`) : [];
  return { ok: true, value: parsed.value, duplicateFields };
}

/** Decodes a JSON body. */
export function decodeJson(body: Buffer): DecodeResult {
  return runSteps(decodeJsonSteps(body));
}

/**
 * Decodes a JSON body as {@link decodeJson} does, a large one in slices that give the event loop back between
 * them (limits/turn-budget.ts): the same value or the same error.
 */
export function decodeJsonYielding(body: Buffer): Promise<DecodeResult> {
  return body.length < largeObjectChars ? Promise.resolve(decodeJson(body)) : runStepsYielding(decodeJsonSteps(body));
}

/** {@link decodeYamlAsJson} in steps. */
function* decodeYamlAsJsonSteps(body: Buffer, exactIntegers: boolean): Steps<DecodeResult | undefined> {
  const text = body.toString('utf8');
  if (!/^\s*\{/.test(text)) return undefined;
  const parsed = yield* parseJsonText(text);
  if (!parsed.ok) return parsed.error.message === nestingTooDeepMessage() ? parsed : undefined;
  if ((exactIntegers && parsed.longInteger) || parsed.duplicates) return undefined;
  return { ok: true, value: parsed.value, duplicateFields: [] };
}

/**
 * A YAML body that is JSON text, read by the JSON parser when that gives what YAML would: no duplicated keys (their
 * messages are YAML's) and, with `exactIntegers`, no integer a double cannot hold exactly (YAML keeps those).
 * Undefined when the YAML parser must read it.
 */
export function decodeYamlAsJson(body: Buffer, exactIntegers: boolean): DecodeResult | undefined {
  return runSteps(decodeYamlAsJsonSteps(body, exactIntegers));
}

/** {@link decodeYamlAsJson}, a large body in slices that give the event loop back between them. */
export function decodeYamlAsJsonYielding(body: Buffer, exactIntegers: boolean): Promise<DecodeResult | undefined> {
  return body.length < largeObjectChars
    ? Promise.resolve(decodeYamlAsJson(body, exactIntegers))
    : runStepsYielding(decodeYamlAsJsonSteps(body, exactIntegers));
}

/**
 * Decodes a YAML body, JSON text through the JSON parser when it reads the same (kubectl's server-side apply sends
 * JSON as `application/apply-patch+yaml`). Request bodies are read without `exactIntegers`, so that big integers
 * become doubles as in a JSON body and nothing stored holds a `bigint`.
 */
export function decodeYaml(body: Buffer, exactIntegers = true): DecodeResult {
  return decodeYamlAsJson(body, exactIntegers) ?? decodeYamlText(body, exactIntegers);
}

/** Where a JSON value sits while scanning: an object (its keys so far, the current key) or an array (its index). */
type ScanFrame =
  | { readonly kind: 'object'; readonly path: string; readonly keys: Set<string>; key: string; expectKey: boolean }
  | { readonly kind: 'array'; readonly path: string; index: number };

function valuePath(frame: ScanFrame | undefined): string {
  if (frame === undefined) return '';
  if (frame.kind === 'array') return `${frame.path}[${frame.index}]`;
  return frame.path === '' ? frame.key : `${frame.path}.${frame.key}`;
}

/**
 * The paths of duplicated object keys in a valid JSON text (`spec.containers[0].image`), in document order.
 * Hand-written: JSON.parse silently keeps the last duplicate and no small library reports them with paths; this
 * scanner only tracks strings, brackets and commas, since the text is already known to be valid JSON.
 */
export function findDuplicateJsonFields(text: string): string[] {
  const found: string[] = [];
  const stack: ScanFrame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) {
          escaped = true;
          j += 2;
          continue;
        }
        if (d === 0x22) break;
        j++;
      }
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        top.key = key;
        top.expectKey = false;
        if (top.keys.has(key)) found.push(valuePath(top));
        else top.keys.add(key);
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      stack.push({ kind: 'object', path: valuePath(stack[stack.length - 1]), keys: new Set(), key: '', expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ kind: 'array', path: valuePath(stack[stack.length - 1]), index: 0 });
    } else if (c === 0x7d || c === 0x5d /* } ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top !== undefined) top.index++;
    }
  }
  return found;
}
