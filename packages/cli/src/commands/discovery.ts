/**
 * `api-resources` (NAME, SHORTNAMES, APIVERSION, NAMESPACED, KIND; `-o wide` adds VERBS and CATEGORIES; `-o name`;
 * `--namespaced`, `--api-group`) and `api-versions` (every served group-version, sorted), as kubectl prints them.
 */
import { table } from '../output.js';
import { error, reportStatus, resources, type Session } from '../session.js';

/** Runs `api-resources`. */
export async function cmdApiResources(s: Session): Promise<number> {
  const rs = await resources(s);
  if (!rs.ok) return reportStatus(s.io, rs.error);
  let list = rs.value.filter((r) => r.preferred);
  if (s.flags.namespaced !== undefined) list = list.filter((r) => r.namespaced === s.flags.namespaced);
  if (s.flags['api-group'] !== undefined) list = list.filter((r) => r.group === s.flags['api-group']);
  list.sort((a, b) => a.group.localeCompare(b.group) || a.resource.localeCompare(b.resource));
  const output = s.flags.output;
  if (output === 'name') {
    s.io.stdout(list.map((r) => (r.group ? `${r.resource}.${r.group}` : r.resource) + '\n').join(''));
    return 0;
  }
  if (output !== undefined && output !== 'wide') return error(s.io, `--output ${output} is not available`);
  const wide = output === 'wide';
  const rows = list.map((r) => [
    r.resource, r.shortNames.join(','), r.group ? `${r.group}/${r.version}` : r.version, String(r.namespaced), r.kind,
    ...(wide ? [`[${r.verbs.join(' ')}]`, r.categories.join(',')] : []),
  ]);
  s.io.stdout(table([['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])], ...rows]));
  return 0;
}

/** Runs `api-versions`. */
export async function cmdApiVersions(s: Session): Promise<number> {
  const accept = { accept: 'application/json' };
  const core = await s.client.request<{ versions?: string[] }>({ method: 'GET', path: '/api', headers: accept });
  if (!core.ok) return reportStatus(s.io, core.error);
  const groups = await s.client.request<{ groups?: Array<{ versions?: Array<{ groupVersion: string }> }> }>({ method: 'GET', path: '/apis', headers: accept });
  if (!groups.ok) return reportStatus(s.io, groups.error);
  const versions = new Set([...(core.value.versions ?? []), ...(groups.value.groups ?? []).flatMap((g) => (g.versions ?? []).map((v) => v.groupVersion))]);
  s.io.stdout([...versions].sort().map((v) => `${v}\n`).join(''));
  return 0;
}
