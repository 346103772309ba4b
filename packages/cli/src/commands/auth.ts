/**
 * `auth can-i VERB TYPE[/NAME] [--subresource]` (a SelfSubjectAccessReview; prints yes/no, exit 0/1; `--list` a
 * SelfSubjectRulesReview as kubectl's table) and `auth whoami` (a SelfSubjectReview: USERNAME, GROUPS, extra).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { table } from '../output.js';
import { error, reportStatus, resolveArg, resources, serverNames, type Session } from '../session.js';

type Review = KubeObject & { status?: Record<string, unknown> };

async function canI(s: Session, args: string[]): Promise<number> {
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const authz = names.value.group('authorization');
  const ref = { group: authz, version: 'v1', resource: '' };
  if (s.flags.list) {
    const review = await s.client.create<Review>({ ...ref, resource: 'selfsubjectrulesreviews' }, { apiVersion: `${authz}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace: s.namespace } });
    if (!review.ok) return reportStatus(s.io, review.error);
    type Rule = { verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
    const st = review.value.status as { resourceRules?: Rule[]; nonResourceRules?: Rule[] } | undefined;
    const rows: string[][] = [];
    for (const r of st?.resourceRules ?? []) {
      for (const res of r.resources ?? []) {
        for (const g of r.apiGroups ?? ['']) rows.push([g === '' ? res : `${res}.${g}`, '[]', `[${(r.resourceNames ?? []).join(' ')}]`, `[${(r.verbs ?? []).join(' ')}]`]);
      }
    }
    for (const r of st?.nonResourceRules ?? []) rows.push(['', `[${(r.nonResourceURLs ?? []).join(' ')}]`, '[]', `[${(r.verbs ?? []).join(' ')}]`]);
    rows.sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!));
    s.io.stdout(table([['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs'], ...rows]));
    return 0;
  }
  const [verb, target] = args;
  if (!verb || !target) return error(s.io, 'you must specify two arguments: verb resource or verb resource/resourceName.');
  let attributes: Record<string, string>;
  if (target.startsWith('/')) {
    attributes = { verb, path: target };
  } else {
    const [typeArg = '', name] = target.split('/');
    const rs = await resources(s);
    if (!rs.ok) return reportStatus(s.io, rs.error);
    const res = await resolveArg(s, typeArg);
    if (!res.ok) {
      // kubectl still asks for a type it does not know, with a warning
      attributes = { verb, resource: typeArg, ...(name ? { name } : {}) };
    } else {
      attributes = {
        verb, group: res.value.group, resource: res.value.resource,
        ...(res.value.namespaced && !s.flags['all-namespaces'] ? { namespace: s.namespace } : {}),
        ...(name ? { name } : {}),
      };
    }
  }
  const review = await s.client.create<Review>({ ...ref, resource: 'selfsubjectaccessreviews' }, { apiVersion: `${authz}/v1`, kind: 'SelfSubjectAccessReview', spec: { [attributes.path === undefined ? 'resourceAttributes' : 'nonResourceAttributes']: attributes } });
  if (!review.ok) return reportStatus(s.io, review.error);
  const allowed = review.value.status?.allowed === true;
  s.io.stdout(allowed ? 'yes\n' : 'no\n');
  return allowed ? 0 : 1;
}

async function whoami(s: Session): Promise<number> {
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const authn = names.value.group('authentication');
  // kubectl asks the beta version, then the alpha one, whichever the server serves
  let review: Awaited<ReturnType<typeof s.client.create<Review>>> | undefined;
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    review = await s.client.create<Review>({ group: authn, version, resource: 'selfsubjectreviews' }, { apiVersion: `${authn}/${version}`, kind: 'SelfSubjectReview' });
    if (review.ok || review.error.code !== 404) break;
  }
  if (!review) return error(s.io, 'no SelfSubjectReview version');
  if (!review.ok) {
    if (review.error.code === 404) return error(s.io, 'the server doesn\'t have a resource type "selfsubjectreviews", enable it with the APISelfSubjectReview feature gate');
    return reportStatus(s.io, review.error);
  }
  const ui = (review.value.status as { userInfo?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } } | undefined)?.userInfo ?? {};
  if (s.flags.output === 'json' || s.flags.output === 'yaml') {
    s.io.stdout(s.flags.output === 'json' ? JSON.stringify(review.value, null, 4) + '\n' : (await import('yaml')).stringify(review.value));
    return 0;
  }
  const rows: string[][] = [['ATTRIBUTE', 'VALUE'], ['Username', ui.username ?? '']];
  if (ui.uid) rows.push(['UID', ui.uid]);
  if (ui.groups) rows.push(['Groups', `[${ui.groups.join(' ')}]`]);
  for (const [k, v] of Object.entries(ui.extra ?? {}).sort(([a], [b]) => a.localeCompare(b))) rows.push([`Extra: ${k}`, `[${v.join(' ')}]`]);
  s.io.stdout(table(rows));
  return 0;
}

/** Runs `auth can-i|whoami`. */
export async function cmdAuth(s: Session, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'can-i') return canI(s, rest);
  if (sub === 'whoami') return whoami(s);
  return error(s.io, `unknown command "${sub ?? ''}" for "svcctl auth"`);
}
