/**
 * Reading certificates with node's own X509Certificate: what a start needs when the PKI already exists, without
 * loading the certificate-issuing library.
 */
import { X509Certificate as NodeX509 } from 'node:crypto';

const dayMs = 24 * 60 * 60 * 1000;

/** The SANs of a certificate, normalised (`DNS:x` → `x`, `IP Address:1.2.3.4` → `1.2.3.4`), sorted. */
export function certificateSans(certPem: string): string[] {
  const alt = new NodeX509(certPem).subjectAltName ?? '';
  return alt.split(', ').filter(Boolean).map((e) => e.replace(/^(DNS|IP Address):/, '').toLowerCase()).sort();
}

/** True when a certificate is valid for at least `marginMs` more and is signed by the CA. */
export function certificateUsable(certPem: string, caPem: string, marginMs = 7 * dayMs): boolean {
  try {
    const cert = new NodeX509(certPem);
    const ca = new NodeX509(caPem);
    return Date.parse(cert.validTo) - Date.now() > marginMs && cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}
