/**
 * `svcctl explain TYPE[.FIELD...] [--recursive]` from the server's OpenAPI v3 (`/openapi/v3` and the document of
 * the resource's group-version): the kind, version, description and fields of the schema the path reaches, in
 * kubectl's plaintext layout.
 */
import { error, reportStatus, resolveArg, type Session } from '../session.js';

type Schema = {
  description?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; $ref?: string;
  allOf?: Schema[]; required?: string[]; additionalProperties?: Schema | boolean;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
};
type Document = { components?: { schemas?: Record<string, Schema> } };

function deref(doc: Document, s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]?.$ref : undefined);
  if (!ref) return s;
  const target = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  return target ? { ...target, ...(s.description ? { description: s.description } : {}) } : s;
}

function typeName(doc: Document, s: Schema): string {
  const d = deref(doc, s) ?? s;
  if (d.type === 'array') return `[]${d.items ? typeName(doc, d.items) : 'Object'}`;
  if (d.type === 'object' && d.additionalProperties && typeof d.additionalProperties === 'object') return `map[string]${typeName(doc, d.additionalProperties)}`;
  if (d.properties || d.type === 'object' || !d.type) {
    const ref = s.$ref ?? s.allOf?.[0]?.$ref;
    return ref ? ref.split('.').pop() ?? 'Object' : 'Object';
  }
  return d.type;
}

function indent(text: string, by: string): string {
  return text.split('\n').map((l) => (l === '' ? '' : by + l)).join('\n');
}

function fields(doc: Document, s: Schema, recursive: boolean, depth: number): string {
  const props = Object.entries(s.properties ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return props.map(([name, p]) => {
    const d = deref(doc, p) ?? p;
    const required = s.required?.includes(name) ? ' -required-' : '';
    const head = `${'  '.repeat(depth)}${name}\t<${typeName(doc, p)}>${required}\n`;
    if (recursive) {
      const inner = d.type === 'array' ? deref(doc, d.items) : d;
      return head + (inner?.properties && depth < 15 ? fields(doc, inner, true, depth + 1) : '');
    }
    return `${head}${indent(d.description ?? p.description ?? '', '    ')}\n\n`;
  }).join('');
}

/** Runs `explain`. */
export async function cmdExplain(s: Session, args: string[]): Promise<number> {
  const [typeArg, ...fieldPath] = (args[0] ?? '').split('.');
  if (!typeArg) return error(s.io, 'You must specify the type of resource to explain. Use "svcctl api-resources" for a complete list of supported resources.');
  const res = await resolveArg(s, typeArg);
  if (!res.ok) return res.error;
  const r = res.value;
  const gvPath = r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`;
  const index = await s.client.request<{ paths?: Record<string, { serverRelativeURL?: string }> }>({ method: 'GET', path: '/openapi/v3', headers: { accept: 'application/json' } });
  if (!index.ok) return reportStatus(s.io, index.error);
  const url = index.value.paths?.[gvPath]?.serverRelativeURL ?? `/openapi/v3/${gvPath}`;
  const doc = await s.client.request<Document>({ method: 'GET', path: url, headers: { accept: 'application/json' } });
  if (!doc.ok) return reportStatus(s.io, doc.error);
  const root = Object.values(doc.value.components?.schemas ?? {}).find((x) =>
    (x['x-kubernetes-group-version-kind'] ?? []).some((g) => g.group === r.group && g.version === r.version && g.kind === r.kind));
  if (!root) return error(s.io, `couldn't find resource for "${r.group ? `${r.group}/` : ''}${r.version}, Kind=${r.kind}"`);
  let schema: Schema = root;
  for (const f of fieldPath) {
    const container = schema.type === 'array' ? deref(doc.value, schema.items) ?? schema : schema;
    const next = deref(doc.value, container.properties?.[f]);
    if (!next) return error(s.io, `field "${f}" does not exist`);
    schema = next;
  }
  const shown = schema.type === 'array' ? deref(doc.value, schema.items) ?? schema : schema;
  let out = `GROUP:      ${r.group}\nKIND:       ${r.kind}\nVERSION:    ${r.version}\n\n`;
  if (fieldPath.length > 0) out += `FIELD: ${fieldPath[fieldPath.length - 1] ?? ''} <${typeName(doc.value, schema)}>\n\n`;
  out += `DESCRIPTION:\n${indent(schema.description ?? '<empty>', '    ')}\n    \n`;
  if (shown.properties) out += `FIELDS:\n${fields(doc.value, shown, s.flags.recursive === true, 1)}`;
  s.io.stdout(out.replace(/\n*$/, '\n'));
  return 0;
}
