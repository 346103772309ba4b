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
  return {
    name: 'x509',
    async authenticate(request): Promise<AuthenticationResult> {
      const [leafDer, ...intermediatesDer] = request.clientCertificates;
      if (leafDer === undefined) return { kind: 'none' };
      let leaf: X509Certificate;
      try {
        leaf = new X509Certificate(leafDer);
      } catch {
        return { kind: 'error', message: 'unparsable client certificate' };
      }
      const now = Date.now();
      if (now < Date.parse(leaf.validFrom) || now > Date.parse(leaf.validTo)) {
        return { kind: 'error', message: 'client certificate has expired or is not yet valid' };
      }
      // Walk up through presented intermediates to a trusted CA.
      const chain = [leaf, ...intermediatesDer.map((d) => new X509Certificate(d))];
      let current = leaf;
      let trusted = false;
      for (let depth = 0; depth < chain.length + 1 && !trusted; depth++) {
        const ca = cas.find((c) => current.checkIssued(c) && current.verify(c.publicKey));
        if (ca) {
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
    },
  };
}
