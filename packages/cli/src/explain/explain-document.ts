/**
 * The plaintext of `kubectl explain` 1.27 rendered from one OpenAPI v3 group-version document, step for step as
 * kubectl's plaintext template walks it: the kind found through the operations of the resource's paths, the schema
 * through its `x-kubernetes-group-version-kind`, the field path followed through properties, array items, map
 * values and `allOf`, descriptions gathered through the same, types named as kubectl guesses them
 * (`[]Container`, `map[string]string`, `Object`, `string` for a reference to a string type), `-required-` fields,
 * and word wrapping at 76 columns for the description and 78 less the indentation for fields.
 * Enums show as kube-apiserver publishes them: the "Possible enum values" paragraph of a field's description.
 */
import { indentLines, wrapWords } from '../word-wrap.js';

/** An OpenAPI v3 schema, as far as explain reads it. */
export interface Schema {
  readonly $ref?: string;
  readonly description?: string;
  readonly type?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly additionalProperties?: Schema | boolean;
  readonly allOf?: readonly Schema[];
  readonly 'x-kubernetes-group-version-kind'?: ReadonlyArray<Readonly<Record<string, string>>>;
}

/** An OpenAPI v3 document, as far as explain reads it. */
export interface Document {
  readonly paths?: Readonly<Record<string, Readonly<Record<string, { readonly 'x-kubernetes-group-version-kind'?: Readonly<Record<string, string>> }>>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, Schema>> };
}

/** The resource explained: group (`''` for core), version, plural. */
export interface ExplainTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

type History = Readonly<Record<string, true>>;

const refPrefix = '#/components/schemas/';

function resolveRef(doc: Document, ref: string | undefined): Schema | undefined {
  if (ref === undefined || !ref.startsWith(refPrefix)) return undefined;
  return doc.components?.schemas?.[ref.slice(refPrefix.length)];
}

/** A schema-valued `additionalProperties` (a boolean one has nothing to walk). */
function mapValues(s: Schema): Schema | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** kubectl's "typeGuess". */
export function typeGuess(doc: Document, s: Schema): string {
  if (s.items) return `[]${typeGuess(doc, s.items)}`;
  const values = mapValues(s);
  if (values) return `map[string]${typeGuess(doc, values)}`;
  if (s.allOf && !s.properties && s.allOf.length === 1 && s.allOf[0]) return typeGuess(doc, s.allOf[0]);
  if (s.$ref) {
    const target = resolveRef(doc, s.$ref);
    if (!target || !target.type || target.type === 'object') return s.$ref.split('/').pop()?.split('.').pop() || 'Object';
    return target.type;
  }
  return s.type === 'object' ? 'Object' : s.type || 'Object';
}

/** kubectl's "description": the schema's own, then those of its allOf, items and map values. */
function description(doc: Document, schema: Schema): string {
  const s = resolveRef(doc, schema.$ref) ?? schema;
  let out = s.description ? `${s.description}\n` : '';
  for (const a of s.allOf ?? []) out += description(doc, a);
  if (s.items) out += description(doc, s.items);
  const values = mapValues(s);
  if (values) out += description(doc, values);
  return out;
}

/** kubectl's "fieldDetail": `name\t<type> -required-`, and unless short, the wrapped description and a blank line. */
function fieldDetail(doc: Document, parent: Schema, name: string, short: boolean, level: number): string {
  const field = parent.properties?.[name] ?? {};
  const indent = level * 2;
  let out = `${indentLines(name, indent)}\t<${typeGuess(doc, field)}>${parent.required?.includes(name) ? ' -required-' : ''}\n`;
  if (!short) out += `${indentLines(wrapWords(field.description || '<no description>', 78 - indent), indent + 2)}\n\n`;
  return out;
}

/** kubectl's "fieldList": the fields of a schema (recursively with `recursive`), stopping at a reference seen before. */
function fieldList(doc: Document, schema: Schema, level: number, history: History, recursive: boolean): string {
  const ref = schema.$ref ?? '';
  if (ref !== '' && history[ref]) return '';
  const next: History = { ...history, [ref]: true };
  const s = resolveRef(doc, ref) ?? schema;
  let out = '';
  for (const name of Object.keys(s.properties ?? {}).sort()) {
    out += fieldDetail(doc, s, name, recursive, level);
    const field = s.properties?.[name];
    if (recursive && field) out += fieldList(doc, field, level + 1, next, recursive);
  }
  for (const a of s.allOf ?? []) out += fieldList(doc, a, level, next, recursive);
  if (s.items) out += fieldList(doc, s.items, level, next, recursive);
  const values = mapValues(s);
  if (values) out += fieldList(doc, values, level, next, recursive);
  return out;
}

/** kubectl's "output": follows the field path, then prints the description and fields of where it ends. */
function output(doc: Document, schema: Schema, history: History, path: readonly string[], recursive: boolean): string {
  const ref = schema.$ref ?? '';
  const next: History = { ...history, [ref]: true };
  const s = resolveRef(doc, ref) ?? schema;
  const [first, ...rest] = path;
  if (first === undefined) {
    let out = `DESCRIPTION:\n${indentLines(wrapWords(description(doc, s) || '<empty>', 76), 4)}\n`;
    const fields = fieldList(doc, s, 1, {}, recursive);
    if (fields !== '') out += `FIELDS:\n${fields}`;
    return out;
  }
  if (ref !== '' && history[ref]) return '';
  const property = s.properties?.[first];
  if (property) {
    const head = rest.length === 0 ? `FIELD: ${first} <${typeGuess(doc, property)}>\n\n` : '';
    return head + output(doc, property, {}, rest, recursive);
  }
  if (s.items) return output(doc, s.items, next, path, recursive);
  const values = mapValues(s);
  if (values) return output(doc, values, next, path, recursive);
  for (const a of s.allOf ?? []) {
    const out = output(doc, a, next, path, recursive);
    if (out !== '') return out;
  }
  return '';
}

const sameGvk = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * What explain prints: its text, and kubectl's error when it fails (the text then holds what kubectl printed before
 * failing: the kind's header when a field does not exist).
 */
export interface Explained {
  readonly text: string;
  readonly error?: string;
}

/** The explain text of a resource (and field path) from its group-version document. */
export function explainDocument(doc: Document, target: ExplainTarget, fieldPath: readonly string[], recursive: boolean): Explained {
  const prefix = target.group === '' ? '/api' : `/apis/${target.group}`;
  const base = `${prefix}/${target.version}`;
  const searchPaths = [`${base}/${target.resource}`, `${base}/${target.resource}/{name}`, `${base}/namespaces/{namespace}/${target.resource}`, `${base}/namespaces/{namespace}/${target.resource}/{name}`];
  let gvk: Readonly<Record<string, string>> | undefined;
  search: for (const p of searchPaths) {
    const item = doc.paths?.[p];
    if (!item) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const found = item[method]?.['x-kubernetes-group-version-kind'];
      if (found) {
        gvk = found;
        break search;
      }
    }
  }
  if (!gvk) return { text: '', error: `GVR (${gvrString(target)}) not found in OpenAPI schema` };
  let out = `${gvk.group ? `GROUP:      ${gvk.group}\n` : ''}KIND:       ${gvk.kind ?? ''}\nVERSION:    ${gvk.version ?? ''}\n\n`;
  const root = Object.values(doc.components?.schemas ?? {}).find((s) => (s['x-kubernetes-group-version-kind'] ?? []).some((g) => sameGvk(g, gvk)));
  if (!root) return { text: out, error: `GVK ${gvk.group ?? ''}/${gvk.version ?? ''}, Kind=${gvk.kind ?? ''} not found in OpenAPI schema` };
  const body = output(doc, root, {}, fieldPath, recursive);
  if (body === '') return { text: out, error: `field "${fieldPath[fieldPath.length - 1] ?? ''}" does not exist` };
  return { text: `${out}${body}\n` };
}

/** A GroupVersionResource as Go prints it: `apps/v1, Resource=deployments`, `/v1, Resource=pods`. */
export function gvrString(target: ExplainTarget): string {
  return `${target.group}/${target.version}, Resource=${target.resource}`;
}
