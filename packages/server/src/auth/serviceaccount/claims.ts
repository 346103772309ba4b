/**
 * Service account token claims in the server's flavour (kube's serviceaccount claims): legacy secret-based
 * tokens carry flat `<domain>/serviceaccount/*` claims and the fixed legacy issuer; bound tokens carry a private
 * `<domain>` claim naming the namespace, service account and the pod or secret they are bound to.
 */
import type { Names } from '@svc-apiserver/api';

/** The issuer of legacy tokens. Not a renamed name: kube-apiserver's legacy tokens use it in every release. */
export const legacyIssuer = 'kubernetes/serviceaccount';

/** The default `--service-account-issuer`. */
export const defaultServiceAccountIssuer = 'https://svc-apiserver.svc';

/** Claim names of a flavour. */
export interface ServiceAccountClaimNames {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
  /** The bound tokens' private claim. */
  readonly privateClaim: string;
  /** Extra keys of the user of a pod-bound token. */
  readonly podNameExtra: string;
  readonly podUidExtra: string;
}

/** The claim names of a flavour. */
export function serviceAccountClaimNames(names: Names): ServiceAccountClaimNames {
  return {
    namespace: names.domain('serviceaccount/namespace'),
    secretName: names.domain('serviceaccount/secret.name'),
    serviceAccountName: names.domain('serviceaccount/service-account.name'),
    serviceAccountUid: names.domain('serviceaccount/service-account.uid'),
    privateClaim: names.fromUpstream('kubernetes.io'),
    podNameExtra: names.domain('pod-name', 'authentication'),
    podUidExtra: names.domain('pod-uid', 'authentication'),
  };
}

/** `system:serviceaccount:<ns>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The namespace and name of a service account username, or undefined for other usernames. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** The groups of every service account of a namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}
