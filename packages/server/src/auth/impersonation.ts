/**
 * Impersonation (k8s.io/apiserver's WithImpersonation, document 2 §Impersonation): `Impersonate-User`,
 * `Impersonate-Group` (repeatable), `Impersonate-Extra-<key>` (key lowercased and percent-decoded) and
 * `Impersonate-Uid`. Each requested value is authorized for the caller with the verb `impersonate` on `users`,
 * `serviceaccounts` (a `system:serviceaccount:<ns>:<name>` user), `groups`, `userextras/<key>` or `uids`, the value
 * being the resource name; the identity is then replaced by the impersonated one.
 */
import { forbidden, internalError, type Names, type Status } from '@svc-apiserver/api';
import type { RequestInfo } from '../request/request-info.js';
import type { AuthenticationRequest } from './authn/authenticator.js';
import { headerNames, headerValues } from './authn/authenticator.js';
import { decodeExtraKey } from './authn/request-header.js';
import type { Authorizer } from '../request/authorizer.js';
import { parseServiceAccountUsername, serviceAccountGroups } from './serviceaccount/claims.js';
import type { UserInfo } from '../request/user-info.js';

const userHeader = 'impersonate-user';
const groupHeader = 'impersonate-group';
const uidHeader = 'impersonate-uid';
const extraPrefix = 'impersonate-extra-';
/** What every impersonation header's name starts with. */
const headerPrefix = 'impersonate-';

/** One permission an impersonation needs: `impersonate` on a resource of a group, the value as name. */
export interface ImpersonationCheck {
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** The answer of {@link impersonate}. */
export type ImpersonationOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'user'; readonly user: UserInfo }
  | { readonly kind: 'failure'; readonly status: Status };

/**
 * False when no header of the request can be an impersonation header (none starts with `Impersonate-`): most
 * requests, which then skip the header scan below without building anything.
 */
export function mayImpersonate(request: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>): boolean {
  const raw = request.rawHeaders;
  if (raw === undefined) return Object.keys(request.headers).some((h) => h.startsWith(headerPrefix));
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The first letter compared with its case folded by hand ('i'): a name that cannot match builds no string.
    if (name.length > headerPrefix.length && (name.charCodeAt(0) | 0x20) === 0x69 && name.slice(0, headerPrefix.length).toLowerCase() === headerPrefix) return true;
  }
  return false;
}

/** The lowercase names of every impersonation header present. */
export function impersonationHeaderNames(request: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>): string[] {
  return headerNames(request).filter((h) => h === userHeader || h === groupHeader || h === uidHeader || h.startsWith(extraPrefix));
}

/** The authorization attributes of one check: a resource request with the verb `impersonate`. */
export function impersonationInfo(check: ImpersonationCheck): RequestInfo {
  return {
    isResourceRequest: true,
    path: '',
    verb: 'impersonate',
    apiPrefix: check.apiGroup === '' ? 'api' : 'apis',
    apiGroup: check.apiGroup,
    apiVersion: 'v1',
    namespace: check.namespace,
    resource: check.resource,
    subresource: check.subresource,
    name: check.name,
    parts: [],
  };
}

/** The Forbidden of a refused check, in kube-apiserver's words. */
function refused(requestor: UserInfo, check: ImpersonationCheck, reason: string | undefined): Status {
  const resource = check.subresource !== '' ? `${check.resource}/${check.subresource}` : check.resource;
  const scope = check.namespace !== '' ? `in the namespace "${check.namespace}"` : 'at the cluster scope';
  const why = `User "${requestor.username}" cannot impersonate resource "${resource}" in API group "${check.apiGroup}" ${scope}${reason ? `: ${reason}` : ''}`;
  return forbidden({ group: check.apiGroup, resource: check.resource }, check.name, why);
}

/**
 * Applies the impersonation headers of a request made by `requestor`: `none` without headers, the impersonated
 * user when every check is allowed, else a failure (403 naming the first refused value; 500 for a group, extra
 * or uid without a user, as kube-apiserver answers).
 */
export async function impersonate(
  request: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>,
  requestor: UserInfo,
  authorizer: Authorizer,
  names: Names,
): Promise<ImpersonationOutcome> {
  const present = impersonationHeaderNames(request);
  if (present.length === 0) return { kind: 'none' };
  const username = headerValues(request, userHeader)[0] ?? '';
  const groups = headerValues(request, groupHeader);
  const uid = headerValues(request, uidHeader)[0];
  const extra: Record<string, string[]> = {};
  for (const h of present) {
    if (!h.startsWith(extraPrefix)) continue;
    const key = decodeExtraKey(h.slice(extraPrefix.length).toLowerCase());
    (extra[key] ??= []).push(...headerValues(request, h));
  }
  if (username === '') {
    const asked = [...(groups.length > 0 ? ['groups'] : []), ...(Object.keys(extra).length > 0 ? ['user-extra'] : []), ...(uid !== undefined ? ['uid'] : [])];
    return { kind: 'failure', status: internalError(`requested ${asked.join(', ')} without impersonating a user`) };
  }
  const authGroup = names.group('authentication');
  const checks: ImpersonationCheck[] = [];
  const finalGroups: string[] = [];
  const sa = parseServiceAccountUsername(username);
  if (sa !== undefined) {
    checks.push({ apiGroup: '', resource: 'serviceaccounts', subresource: '', namespace: sa.namespace, name: sa.name });
    finalGroups.push(...serviceAccountGroups(sa.namespace));
  } else {
    checks.push({ apiGroup: '', resource: 'users', subresource: '', namespace: '', name: username });
  }
  for (const g of groups) {
    checks.push({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: g });
    if (!finalGroups.includes(g)) finalGroups.push(g);
  }
  for (const [key, values] of Object.entries(extra)) {
    for (const v of values) checks.push({ apiGroup: authGroup, resource: 'userextras', subresource: key, namespace: '', name: v });
  }
  if (uid !== undefined) checks.push({ apiGroup: authGroup, resource: 'uids', subresource: '', namespace: '', name: uid });

  for (const check of checks) {
    const decision = await authorizer.authorize({ user: requestor, info: impersonationInfo(check) });
    if (decision.decision !== 'allow') return { kind: 'failure', status: refused(requestor, check, decision.reason) };
  }
  // Impersonating anonymous keeps it unauthenticated; anyone else is authenticated.
  const implied = username === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated';
  if (!finalGroups.includes(implied)) finalGroups.push(implied);
  return {
    kind: 'user',
    user: {
      username,
      ...(uid !== undefined ? { uid } : {}),
      groups: finalGroups,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}

