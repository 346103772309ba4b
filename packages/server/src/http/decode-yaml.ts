/**
 * YAML request bodies, read as kube-apiserver reads them: sigs.k8s.io/yaml on go-yaml v2, so YAML 1.1 scalars
 * (`yes`/`no`/`on`/`off` are booleans, `0644` is octal), merge keys, no timestamp or sexagesimal types (Go
 * unmarshals into JSON, where dates stay strings). Integers are read exactly and become numbers when they fit a
 * double without loss; with `exactIntegers` they stay `bigint` up to 64 bits (else they become the nearest double,
 * as a JSON body's do), and past 64 bits they become a double (or, beyond a double, stay text) as go-yaml resolves
 * them. One document per body. Duplicated keys are reported as go-yaml's strict mode words
 * them (`line 9: key "replicas" already set in map`); the last value wins.
 *
 * Bounded before and while decoding: the nesting depth is estimated from the lexer's tokens before the document is
 * parsed (the parser and composer recurse, and the parser slows down quadratically on deep flow collections), the
 * composed value is copied into plain JSON data with an explicit stack that refuses anything deeper than the limit
 * and any alias expansion past a budget proportional to the body (go-yaml's `excessive aliasing`), so an alias bomb
 * costs the server no more than its bytes. Binary, set and ordered-map tags become the JSON go-yaml makes of them;
 * infinities and NaN are refused as Go's JSON encoder refuses them.
 */
import { CST, isScalar, Lexer, LineCounter, parseAllDocuments, visit, type Tags } from 'yaml';
import { badRequest, fail, maxNestingDepth, ok, type Result } from '@svc-apiserver/api';
import { nestingTooDeepMessage } from '../limits/nesting-depth.js';
import type { DecodeResult } from './decode-result.js';

const dropped = new Set(['timestamp', 'intTime', 'floatTime']);

/** YAML 1.1 tags minus the ones Go's JSON-bound reading does not have (timestamps, sexagesimal numbers). */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((t) => (typeof t === 'string'
    ? !dropped.has(t)
    : t.tag !== 'tag:yaml.org,2002:timestamp' && (t as { format?: string }).format !== 'TIME'));
}

/**
 * An upper estimate of a YAML text's nesting depth, from the lexer's tokens (the lexer is iterative and linear):
 * flow collections count exactly; a line in block context counts its indentation plus its block indicators
 * (`-`, `?`, `:`), since every nested block collection but a sequence under a key needs more indentation or an
 * indicator on the same line. True once the estimate passes `limit`. The estimate only keeps the composer (which
 * recurses) within what the stack takes; the exact depth is checked on the composed value. Its limit is half again
 * the depth limit, so that a document indented four spaces a level reads as deep as it is.
 */
export function yamlTooDeep(text: string, limit = Math.floor(maxNestingDepth * 1.5)): boolean {
  let flow = 0;
  let indent = 0;
  let indicators = 0;
  let lineStart = true;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    if (scalarNext) {
      scalarNext = false;
      lineStart = false;
      continue;
    }
    if (token === '\u001f') {
      scalarNext = true;
      continue;
    }
    switch (CST.tokenType(token)) {
      case 'newline':
        lineStart = true;
        if (flow === 0) {
          indent = 0;
          indicators = 0;
        }
        continue;
      case 'space':
        if (lineStart && flow === 0) indent = token.length;
        continue;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (flow === 0) indicators++;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        flow++;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (flow > 0) flow--;
        break;
      default:
        break;
    }
    lineStart = false;
    if (indent + indicators + flow > limit) return true;
  }
  return false;
}

const tooDeep = (): DecodeResult => fail(badRequest(nestingTooDeepMessage()));
const excessiveAliasing = (): DecodeResult => fail(badRequest('yaml: document contains excessive aliasing'));

/** A composed value made plain JSON data, or why not. */
type Materialized = Result<unknown, DecodeResult>;

const uint64Limit = 2n ** 64n;

/** A decoded scalar as go-yaml hands it to JSON, or why JSON cannot hold it. */
function plainScalar(value: unknown, exactIntegers: boolean): { value: unknown } | { error: string } {
  if (typeof value === 'bigint') {
    if (value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) return { value: Number(value) };
    if (value > -uint64Limit && value < uint64Limit) return { value: exactIntegers ? value : Number(value) };
    // go-yaml: past 64 bits an integer resolves as a float, and past a float's range it stays text.
    const asFloat = Number(value);
    return { value: Number.isFinite(asFloat) ? asFloat : value.toString() };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { error: `json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}` };
  }
  if (value instanceof Uint8Array) return { value: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8') };
  if (value instanceof Date) return { value: value.toISOString() };
  return { value };
}

/**
 * Copies a composed document into plain JSON data with an explicit stack: aliases are expanded (as go-yaml does)
 * within a budget of `budget` nodes and string characters, nesting within the depth limit.
 */
function materialize(root: unknown, budget: number, exactIntegers: boolean): Materialized {
  let spent = 0;
  const holder: { value: unknown } = { value: undefined };
  type Frame = { readonly source: unknown; readonly set: (v: unknown) => void; readonly depth: number };
  const stack: Frame[] = [{ source: root, set: (v) => { holder.value = v; }, depth: 0 }];
  while (stack.length > 0) {
    const { source, set, depth } = stack.pop()!;
    spent++;
    if (typeof source === 'string') spent += source.length;
    if (spent > budget) return fail(excessiveAliasing());
    if (typeof source !== 'object' || source === null || source instanceof Uint8Array || source instanceof Date) {
      const plain = plainScalar(source, exactIntegers);
      if ('error' in plain) return fail(fail(badRequest(plain.error)));
      set(plain.value === undefined ? null : plain.value);
      continue;
    }
    if (depth + 1 > maxNestingDepth) return fail(tooDeep());
    if (Array.isArray(source)) {
      const out: unknown[] = new Array<unknown>(source.length);
      set(out);
      for (let i = source.length - 1; i >= 0; i--) stack.push({ source: source[i], set: (v) => { out[i] = v; }, depth: depth + 1 });
      continue;
    }
    const out: Record<string, unknown> = {};
    set(out);
    // !!set: a map of keys to null; !!omap and !!pairs: their pairs as one map, as JSON cannot keep the order.
    const entries: [unknown, unknown][] = source instanceof Map
      ? [...source.entries()]
      : source instanceof Set
        ? [...source].map((k) => [k, null])
        : Object.entries(source);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!;
      const key = typeof k === 'string' ? k : String(k);
      stack.push({ source: v, set: (x) => { out[key] = x; }, depth: depth + 1 });
    }
  }
  return ok(holder.value);
}

/** Go's parse error words, without what only JavaScript would say. */
function parseErrorMessage(message: string): string {
  return /call stack/i.test(message) ? nestingTooDeepMessage() : `yaml parse error: ${message.split('\n')[0]}`;
}

/** Decodes a YAML body (one document); `exactIntegers` keeps 64-bit integers a double cannot hold as `bigint`. */
export function decodeYaml(body: Buffer, exactIntegers = true): DecodeResult {
  const text = body.toString('utf8');
  if (yamlTooDeep(text)) return tooDeep();
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
    return fail(badRequest(parseErrorMessage((e as Error).message)));
  }
  if (!Array.isArray(docs)) return fail(badRequest('the request body is empty: expected a YAML document'));
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length === 0) return fail(badRequest('the request body is empty: expected a YAML document'));
  if (real.length > 1) {
    return fail(badRequest('the request body holds more than one YAML document: send one object per request'));
  }
  const doc = real[0]!;
  if (doc.errors.length > 0) return fail(badRequest(parseErrorMessage(doc.errors[0]!.message)));
  const duplicateFields: { line: number; text: string }[] = [];
  try {
    visit(doc, {
      Map(_key, map) {
        const seen = new Set<string>();
        for (const pair of map.items) {
          const key = isScalar(pair.key) ? pair.key.value : pair.key;
          if (key === '<<' || (typeof key === 'object' && key !== null)) continue;
          const keyText = typeof key === 'string' ? key : String(key);
          if (!seen.has(keyText)) {
            seen.add(keyText);
            continue;
          }
          const line = isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : 0;
          duplicateFields.push({ line, text: `line ${line}: key ${typeof key === 'string' ? JSON.stringify(key) : keyText} already set in map` });
        }
      },
    });
    duplicateFields.sort((a, b) => a.line - b.line);
    // Aliases come back as shared references (nothing is expanded yet): materialize expands them within its budget.
    const composed = doc.toJS({ maxAliasCount: -1 });
    const plain = materialize(composed, 4 * body.length + 65_536, exactIntegers);
    if (!plain.ok) return plain.error;
    return { ok: true, value: plain.value, duplicateFields: duplicateFields.map((d) => d.text) };
  } catch (e) {
    return fail(badRequest(parseErrorMessage((e as Error).message)));
  }
}
