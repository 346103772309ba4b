/**
 * Request body decoding: JSON and YAML documents, read the way kube-apiserver reads them.
 *
 * YAML follows sigs.k8s.io/yaml on go-yaml v2: YAML 1.1 scalars (`yes`/`no`/`on`/`off` are booleans, `0644` is
 * octal), merge keys, but no timestamp or sexagesimal types (Go unmarshals into JSON, where dates stay strings).
 * Integers are read exactly and become numbers when they fit a double without loss; larger ones stay `bigint`.
 * One document per body.
 */
import { parseAllDocuments, type Tags } from 'yaml';
import { badRequest, type Status } from '@svc-apiserver/api';

/** A decode result. */
export type DecodeResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status: Status };

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
  if (text.trim() === '') return { ok: false, status: badRequest('the request body is empty: expected a JSON document') };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, status: badRequest(`json parse error: ${(e as Error).message}`) };
  }
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
  let docs;
  try {
    docs = parseAllDocuments(text, {
      version: '1.1',
      schema: 'yaml-1.1',
      customTags: goYamlTags,
      intAsBigInt: true,
      merge: true,
      uniqueKeys: true,
    });
  } catch (e) {
    return { ok: false, status: badRequest(`yaml parse error: ${(e as Error).message}`) };
  }
  if (!Array.isArray(docs)) return { ok: false, status: badRequest('the request body is empty: expected a YAML document') };
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length === 0) return { ok: false, status: badRequest('the request body is empty: expected a YAML document') };
  if (real.length > 1) {
    return { ok: false, status: badRequest('the request body holds more than one YAML document: send one object per request') };
  }
  const doc = real[0]!;
  if (doc.errors.length > 0) {
    return { ok: false, status: badRequest(`yaml parse error: ${doc.errors[0]!.message.split('\n')[0]}`) };
  }
  try {
    // Go maps keys to strings; so does toJS with mapAsMap off. maxAliasCount guards against alias bombs.
    return { ok: true, value: normalizeInts(doc.toJS({ maxAliasCount: 1000 })) };
  } catch (e) {
    return { ok: false, status: badRequest(`yaml parse error: ${(e as Error).message}`) };
  }
}
