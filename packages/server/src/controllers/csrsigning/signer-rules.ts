/**
 * What each built-in signer accepts (kube's isRequestForSignerFn of pkg/controller/certificates/signer and the
 * certificates helpers ValidateKubeletClientCSR / ValidateKubeletServingCSR), in kube's words:
 *
 * - API client: usages must include `client auth`, beyond it only `digital signature` and `key encipherment`; any
 *   subject and names.
 * - API client node: organization exactly `system:nodes`, common name `system:node:<name>`, no subject alternative
 *   names, usages `key encipherment`, `digital signature`, `client auth` (or, for keys that cannot encipher, the
 *   last two).
 * - Node serving: organization exactly `system:nodes`, at least one DNS or IP name and no email or URI names,
 *   usages `key encipherment`, `digital signature`, `server auth` (or the last two), common name
 *   `system:node:<name>`.
 * - Legacy unknown: anything.
 */
import type { Names } from '@svc-apiserver/api';
import type { CertificateRequest } from '../../pki/csr.js';

/** Whether a signer handles a request and, if it does, why it refuses it. */
export type SignerVerdict = { readonly recognized: false } | { readonly recognized: true; readonly violation?: string };

const nodesGroup = 'system:nodes';
const nodeUserPrefix = 'system:node:';

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** Go's `%v` of a sorted string set: `[a b c]`. */
const listed = (values: readonly string[]): string => `[${[...values].sort().join(' ')}]`;

const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const clientUsagesNoRsa = ['digital signature', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];
const servingUsagesNoRsa = ['digital signature', 'server auth'];

/** ValidateKubeletClientCSR: the node client rules, or undefined when they hold. */
export function nodeClientViolation(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== nodesGroup) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith(nodeUserPrefix)) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, clientUsages) && !sameSet(usages, clientUsagesNoRsa)) return `usages did not match ${listed(clientUsages)}`;
  return undefined;
}

/** ValidateKubeletServingCSR: the node serving rules, or undefined when they hold. */
export function nodeServingViolation(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== nodesGroup) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, servingUsages) && !sameSet(usages, servingUsagesNoRsa)) return `usages did not match ${listed(servingUsages)}`;
  if (!req.commonName.startsWith(nodeUserPrefix)) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** validAPIServerClientUsages: the API client rules, or undefined when they hold. */
export function apiClientViolation(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** The verdict of the built-in signer `signerName` on a request. */
export function signerVerdict(names: Names, signerName: string, req: CertificateRequest, usages: readonly string[]): SignerVerdict {
  const verdict = (violation: string | undefined): SignerVerdict => (violation === undefined ? { recognized: true } : { recognized: true, violation });
  if (signerName === names.name('signerApiClient')) return verdict(apiClientViolation(usages));
  if (signerName === names.name('signerApiClientNode')) return verdict(nodeClientViolation(req, usages));
  if (signerName === names.name('signerNodeServing')) return verdict(nodeServingViolation(req, usages));
  if (signerName === names.name('signerLegacyUnknown')) return { recognized: true };
  return { recognized: false };
}
