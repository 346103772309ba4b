/**
 * Request body decoding: JSON and YAML documents, read the way kube-apiserver reads them.
 *
 * YAML follows sigs.k8s.io/yaml on go-yaml v2: YAML 1.1 scalars (`yes`/`no`/`on`/`off` are booleans, `0644` is
 * octal), merge keys, but no timestamp or sexagesimal types (Go unmarshals into JSON, where dates stay strings).
 * Integers are read exactly and become numbers when they fit a double without loss; larger ones stay `bigint`.
 * One document per body.
 *
 * Both decoders also report duplicate fields (for field validation): JSON as sigs.k8s.io/json's strict decoder
 * names them (`duplicate field "spec.replicas"`, the full path), YAML as go-yaml's strict mode does
 * (`line 9: key "replicas" already set in map`). The last value of a duplicated key wins, as in Go.
 */
import { isScalar, LineCounter, parseAllDocuments, visit, type Tags } from 'yaml';
import { badRequest, type Fail, type Ok, type Status } from '@svc-apiserver/api';

/** A decode result; `duplicateFields` lists the duplicated keys, in document order, as kube-apiserver words them. */
export type DecodeResult = (Ok<unknown> & { readonly duplicateFields: readonly string[] }) | Fail<Status>;

/** Media types decoded as JSON text. */
export const jsonBodyMediaTypes: ReadonlySet<string> = new Set([
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
]);
/** Media types decoded as YAML text. */
export const yamlBodyMediaTypes: ReadonlySet<string> = new Set(['application/yaml', 'application/apply-patch+yaml']);

/** Decodes a JSON body. */
export function decodeJson(body: Buffer): DecodeResult {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, error: badRequest('the request body is empty: expected a JSON document') };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, error: badRequest(`json parse error: ${(e as Error).message}`) };
  }
  return { ok: true, value, duplicateFields: findDuplicateJsonFields(text).map((p) => `duplicate field "${p}"`) };
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

const dropped = new Set(['timestamp', 'intTime', 'floatTime']);

/** YAML 1.1 tags minus the ones Go's JSON-bound reading does not have (timestamps, sexagesimal numbers). */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((t) => (typeof t === 'string'
    ? !dropped.has(t)
    : t.tag !== 'tag:yaml.org,2002:timestamp' && (t as { format?: string }).format !== 'TIME'));
}

function normalizeInts(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (Array.isArray(value)) return value.map(normalizeInts);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeInts(v);
    return out;
  }
  return value;
}

/** Decodes a YAML body (one document). */
export function decodeYaml(body: Buffer): DecodeResult {
  const text = body.toString('utf8');
  const lineCounter = new LineCounter();
  let docs;
  try {
    docs = parseAllDocuments(text, {
      lineCounter,
      version: '1.1',
      schema: 'yaml-1.1',
      customTags: goYamlTags,
      intAsBigInt: true,
      merge: true,
      uniqueKeys: false,
    });
  } catch (e) {
    return { ok: false, error: badRequest(`yaml parse error: ${(e as Error).message}`) };
  }
  if (!Array.isArray(docs)) return { ok: false, error: badRequest('the request body is empty: expected a YAML document') };
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length === 0) return { ok: false, error: badRequest('the request body is empty: expected a YAML document') };
  if (real.length > 1) {
    return { ok: false, error: badRequest('the request body holds more than one YAML document: send one object per request') };
  }
  const doc = real[0]!;
  if (doc.errors.length > 0) {
    return { ok: false, error: badRequest(`yaml parse error: ${doc.errors[0]!.message.split('\n')[0]}`) };
  }
  const duplicateFields: string[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (key === '<<' || (typeof key === 'object' && key !== null)) continue;
        const text = typeof key === 'string' ? key : String(key);
        if (!seen.has(text)) {
          seen.add(text);
          continue;
        }
        const at = isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : 0;
        duplicateFields.push(`line ${at}: key ${typeof key === 'string' ? JSON.stringify(key) : text} already set in map`);
      }
    },
  });
  duplicateFields.sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
  try {
    // Go maps keys to strings; so does toJS with mapAsMap off. maxAliasCount guards against alias bombs.
    return { ok: true, value: normalizeInts(doc.toJS({ maxAliasCount: 1000 })), duplicateFields };
  } catch (e) {
    return { ok: false, error: badRequest(`yaml parse error: ${(e as Error).message}`) };
  }
}
