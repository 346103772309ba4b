/**
 * `svcctl explain TYPE[.FIELD...] [--recursive] [--api-version=GROUP/VERSION]`, as kubectl 1.27 explains from the
 * server's OpenAPI v3: the resource resolved as kubectl does (`deployments.apps.spec` takes the group from the
 * argument when a served resource's `<plural>.<group>` prefixes it; otherwise the first resource of that name and
 * the rest is the field path), its group-version's document read through the `/openapi/v3` index, and the text
 * rendered by `explain/explain-document.ts`. Custom resources are explained from the schemas their CRDs publish.
 */
import { parseApiVersion } from '@svc-apiserver/api';
import type { DiscoveredResource } from '@svc-apiserver/client';
import { explainDocument, gvrString, type Document, type ExplainTarget } from '../explain/explain-document.js';
import { error, reportStatus, resources, type Session } from '../session.js';

const matchesName = (r: DiscoveredResource, name: string): boolean =>
  r.resource === name || r.singularName === name || r.shortNames.includes(name) || r.kind.toLowerCase() === name;

/** The resource and field path of an explain argument, as kubectl's SplitAndParseResourceRequestWithMatchingPrefix. */
function splitArgument(all: readonly DiscoveredResource[], arg: string): { r: DiscoveredResource; fields: string[] } | undefined {
  const input = arg.replace(/\.$/, '');
  const parts = input.split('.');
  const name = (parts[0] ?? '').toLowerCase();
  const candidates = all.filter((r) => matchesName(r, name)).sort((a, b) => Number(b.group === '') - Number(a.group === ''));
  for (const r of candidates) {
    const groupResource = r.group ? `${r.resource}.${r.group}` : r.resource;
    if (input.startsWith(groupResource)) return { r, fields: input.slice(groupResource.length).split('.').slice(1) };
  }
  const first = candidates[0];
  return first ? { r: first, fields: parts.slice(1) } : undefined;
}

/** Runs `explain`. */
export async function cmdExplain(s: Session, args: string[]): Promise<number> {
  if (args.length === 0) return error(s.io, 'You must specify the type of resource to explain. Use "svcctl api-resources" for a complete list of supported resources.');
  if (args.length > 1) return error(s.io, 'We accept only this format: explain RESOURCE');
  const arg = args[0] ?? '';
  const rs = await resources(s);
  if (!rs.ok) return reportStatus(s.io, rs.error);
  const split = splitArgument(rs.value, s.flags['api-version'] === undefined ? arg : arg.split('.')[0] ?? '');
  if (!split) {
    // kubectl prints the RESTMapper's refusal as it is
    s.io.stderr(`the server doesn't have a resource type "${arg.split('.')[0] ?? ''}"\n`);
    return 1;
  }
  let target: ExplainTarget = { group: split.r.group, version: split.r.version, resource: split.r.resource };
  let fields = split.fields;
  if (s.flags['api-version'] !== undefined) {
    const gv = parseApiVersion(s.flags['api-version']);
    target = { ...target, group: gv.group, version: gv.version };
    fields = arg.replace(/\.$/, '').split('.').slice(1);
  }
  const gvPath = target.group ? `apis/${target.group}/${target.version}` : `api/${target.version}`;
  const index = await s.client.request<{ paths?: Record<string, { serverRelativeURL?: string }> }>({ method: 'GET', path: '/openapi/v3', headers: { accept: 'application/json' } });
  if (!index.ok) return reportStatus(s.io, index.error);
  const url = index.value.paths?.[gvPath]?.serverRelativeURL;
  if (url === undefined) return error(s.io, `couldn't find resource for "${gvrString(target)}"`);
  const doc = await s.client.request<Document>({ method: 'GET', path: url, headers: { accept: 'application/json' } });
  if (!doc.ok) return reportStatus(s.io, doc.error);
  const explained = explainDocument(doc.value, target, fields, s.flags.recursive === true);
  s.io.stdout(explained.text);
  return explained.error === undefined ? 0 : error(s.io, explained.error);
}
