/**
 * Client-certificate authentication (k8s.io/apiserver's x509 authenticator): a certificate that verifies against
 * the client CA, is within its validity period and allows client authentication names the user by its subject's
 * CN and its groups by the subject's O values.
 */
import { X509Certificate } from 'node:crypto';
import type { Authenticator, AuthenticationResult } from './authenticator.js';
import { withAuthenticatedGroup } from './authenticator.js';

/** Splits a subject (`CN=admin\nO=system:masters`) into attribute values. */
function subjectValues(subject: string, attribute: string): string[] {
  const out: string[] = [];
  for (const line of subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq) === attribute) out.push(line.slice(eq + 1));
  }
  return out;
}

/** The x509 authenticator, trusting the CA certificates given (PEM). */
export function x509Authenticator(caPems: readonly string[]): Authenticator {
  const cas = caPems.map((pem) => new X509Certificate(pem));
  // Parsing and verifying a chain costs far more than serving a small request. A connection presents its chain
  // once, and the request context hands every request of that connection the same Buffer, so the verdict is kept
  // per Buffer, with the leaf's validity period rechecked on every use.
  const verdicts = new WeakMap<Buffer, { result: AuthenticationResult; notBefore: number; notAfter: number }>();
  const verify = (leafDer: Buffer, intermediatesDer: readonly Buffer[]) => {
    let leaf: X509Certificate;
    try {
      leaf = new X509Certificate(leafDer);
    } catch {
      return { result: { kind: 'error', message: 'unparsable client certificate' } as const, notBefore: -Infinity, notAfter: Infinity };
    }
    return { result: verifyChain(cas, leaf, intermediatesDer), notBefore: Date.parse(leaf.validFrom), notAfter: Date.parse(leaf.validTo) };
  };
  return {
    name: 'x509',
    async authenticate(request): Promise<AuthenticationResult> {
      const [leafDer, ...intermediatesDer] = request.clientCertificates;
      if (leafDer === undefined) return { kind: 'none' };
      let verdict = verdicts.get(leafDer);
      if (verdict === undefined) {
        verdict = verify(leafDer, intermediatesDer);
        verdicts.set(leafDer, verdict);
      }
      const now = Date.now();
      if (now < verdict.notBefore || now > verdict.notAfter) {
        return { kind: 'error', message: 'client certificate has expired or is not yet valid' };
      }
      return verdict.result;
    },
  };
}

/** Verifies a leaf through the presented intermediates up to a trusted CA; names the user on success. */
function verifyChain(cas: readonly X509Certificate[], leaf: X509Certificate, intermediatesDer: readonly Buffer[]): AuthenticationResult {
  let chain: X509Certificate[];
  try {
    chain = [leaf, ...intermediatesDer.map((d) => new X509Certificate(d))];
  } catch {
    return { kind: 'error', message: 'unparsable client certificate' };
  }
  let current = leaf;
  let trusted = false;
  for (let depth = 0; depth < chain.length + 1 && !trusted; depth++) {
    if (cas.some((c) => current.checkIssued(c) && current.verify(c.publicKey))) {
      trusted = true;
      break;
    }
    const next = chain.find((c) => c !== current && current.checkIssued(c) && current.verify(c.publicKey));
    if (!next) break;
    current = next;
  }
  if (!trusted) return { kind: 'error', message: 'client certificate signed by unknown authority' };
  const username = subjectValues(leaf.subject, 'CN')[0] ?? '';
  if (username === '') return { kind: 'error', message: 'client certificate has no common name' };
  return { kind: 'user', method: 'x509', user: withAuthenticatedGroup({ username, groups: subjectValues(leaf.subject, 'O') }) };
}
