/**
 * Client-certificate authentication (k8s.io/apiserver's x509 authenticator, `--client-ca-file`): a certificate
 * that verifies against the client CA bundle, is within its validity period and allows client authentication
 * names the user by its subject's CN and its groups by the subject's O values. The bundle may change at run time
 * (the CA file is reloaded); verdicts are kept per presented chain and CA generation.
 */
import { X509Certificate } from 'node:crypto';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { withAuthenticatedGroup, type AuthenticationResult, type Authenticator } from './authenticator.js';
import { staticCaBundle, unionCaBundle, type CaBundle } from './ca-bundle.js';

const clientAuthUsage = '1.3.6.1.5.5.7.3.2';
const anyUsage = '2.5.29.37.0';

/** Splits a subject (`CN=admin\nO=system:masters`) into attribute values. */
export function subjectValues(subject: string, attribute: string): string[] {
  const out: string[] = [];
  for (const line of subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq) === attribute) out.push(line.slice(eq + 1));
  }
  return out;
}

/** A verified chain's leaf, or why it does not verify. */
export type ChainVerdict = Result<X509Certificate, string> & { readonly notBefore: number; readonly notAfter: number };

/** True when a certificate's extended key usage allows client authentication (no extension allows all). */
function allowsClientAuth(cert: X509Certificate): boolean {
  const usages = cert.keyUsage as string[] | undefined;
  return usages === undefined || usages.includes(clientAuthUsage) || usages.includes(anyUsage);
}

/**
 * Verifies a presented chain (DER, leaf first) through its intermediates up to one of `cas`, as Go's x509 Verify
 * with client-auth key usage does: signatures, CA flags of issuers, validity periods and extended key usage.
 */
export function verifyClientChain(cas: readonly X509Certificate[], chainDer: readonly Buffer[]): ChainVerdict {
  const [leafDer, ...intermediatesDer] = chainDer;
  const unbounded = { notBefore: -Infinity, notAfter: Infinity };
  if (leafDer === undefined) return { ...fail('no client certificate'), ...unbounded };
  let chain: X509Certificate[];
  try {
    chain = [leafDer, ...intermediatesDer].map((d) => new X509Certificate(d));
  } catch {
    return { ...fail('unparsable client certificate'), ...unbounded };
  }
  const leaf = chain[0]!;
  const bounds = { notBefore: Date.parse(leaf.validFrom), notAfter: Date.parse(leaf.validTo) };
  const now = Date.now();
  const issues = (child: X509Certificate, parent: X509Certificate): boolean =>
    parent.ca && child.checkIssued(parent) && child.verify(parent.publicKey);
  let current = leaf;
  for (let depth = 0; depth <= chain.length; depth++) {
    if (!allowsClientAuth(current)) return { ...fail('certificate does not allow client authentication'), ...bounds };
    if (current !== leaf && (now < Date.parse(current.validFrom) || now > Date.parse(current.validTo))) {
      return { ...fail('intermediate certificate has expired or is not yet valid'), ...bounds };
    }
    const root = cas.find((c) => issues(current, c) || (current.fingerprint256 === c.fingerprint256 && current !== leaf));
    if (root !== undefined) {
      if (now < Date.parse(root.validFrom) || now > Date.parse(root.validTo)) {
        return { ...fail('certificate authority has expired or is not yet valid'), ...bounds };
      }
      return { ...ok(leaf), ...bounds };
    }
    const next = chain.find((c) => c !== current && issues(current, c));
    if (next === undefined) break;
    current = next;
  }
  return { ...fail('certificate signed by unknown authority'), ...bounds };
}

/**
 * Keeps chain verdicts per presented leaf Buffer. A connection presents its chain once and the request context
 * hands every request of that connection the same Buffer, so verification (far costlier than serving a small
 * request) runs once per connection and CA generation; the leaf's validity period is rechecked on every use.
 */
export function chainVerifier(bundle: CaBundle): (chainDer: readonly Buffer[]) => ChainVerdict {
  const verdicts = new WeakMap<Buffer, { generation: number; verdict: ChainVerdict }>();
  return (chainDer) => {
    const leafDer = chainDer[0];
    if (leafDer === undefined) return verifyClientChain([], chainDer);
    const generation = bundle.generation();
    let entry = verdicts.get(leafDer);
    if (entry === undefined || entry.generation !== generation) {
      entry = { generation, verdict: verifyClientChain(bundle.certificates(), chainDer) };
      verdicts.set(leafDer, entry);
    }
    const { verdict } = entry;
    const now = Date.now();
    if (now < verdict.notBefore || now > verdict.notAfter) {
      return { ok: false, error: 'client certificate has expired or is not yet valid', notBefore: verdict.notBefore, notAfter: verdict.notAfter };
    }
    return verdict;
  };
}

/** The x509 authenticator, trusting a CA bundle (or fixed CA certificates given as PEM). */
export function x509Authenticator(cas: CaBundle | readonly string[]): Authenticator {
  const bundle = Array.isArray(cas) ? unionCaBundle((cas as readonly string[]).map(staticCaBundle)) : (cas as CaBundle);
  const verify = chainVerifier(bundle);
  /**
   * The names of a verified leaf, read once: its subject is a native getter building a new string on every read,
   * and a connection presents the same leaf (the verdict keeps it) on each of its requests.
   */
  const namesOf = new WeakMap<X509Certificate, { readonly username: string; readonly groups: readonly string[] }>();
  return {
    name: 'x509',
    async authenticate(request): Promise<AuthenticationResult> {
      if (request.clientCertificates.length === 0) return { kind: 'none' };
      const verdict = verify(request.clientCertificates);
      if (!verdict.ok) return { kind: 'error', message: verdict.error };
      let names = namesOf.get(verdict.value);
      if (names === undefined) {
        const subject = verdict.value.subject;
        names = { username: subjectValues(subject, 'CN')[0] ?? '', groups: subjectValues(subject, 'O') };
        namesOf.set(verdict.value, names);
      }
      const { username } = names;
      if (username === '') return { kind: 'error', message: 'client certificate has no common name' };
      // A fresh groups array per request: the user is the request's own.
      return { kind: 'user', method: 'x509', user: withAuthenticatedGroup({ username, groups: [...names.groups] }) };
    },
  };
}
