/**
 * Issuing a certificate for a verified request (kube's authority.CertificateAuthority.Sign with its
 * PermissiveSigningPolicy): the request's subject, subject alternative names and public key; key usages and
 * extended key usages from the requested usages only (every other requested extension is dropped); never the CA bit;
 * a random 128-bit serial; the lifetime the signer grants, cut at the CA's own end.
 *
 * Validity: kube backdates the start by 5 minutes for clock skew, and for certificates shorter than 8 hours keeps
 * the end at now + duration, so they live 5 minutes longer than granted. Here the lifetime (notAfter − notBefore)
 * never exceeds the granted duration, as the spec bounds it by `expirationSeconds`: long certificates are
 * backdated with their end moved as well, short ones start now.
 */
import { randomBytes } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { CertificateRequest } from './csr.js';
import { certificateUsages } from './key-usages.js';
import { encodePem } from './pem.js';
import type { SigningCa } from './signing-ca.js';
import { loadX509 } from './x509-library.js';

/** How a certificate is issued. */
export interface SigningPolicy {
  /** The requested usages (already checked by the signer's rules). */
  readonly usages: readonly string[];
  /** The lifetime granted, in ms. */
  readonly durationMs: number;
  /** The signing time (ms since the epoch). */
  readonly now: number;
}

/** kube's backdate of certificate starts. */
const backdateMs = 5 * 60_000;
/** Certificates shorter than this are not backdated (kube's `Short`). */
const shortMs = 8 * 60 * 60_000;

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/** Issues the certificate (PEM), or says why the CA cannot (it has expired). */
export async function signCertificateRequest(ca: SigningCa, request: CertificateRequest, policy: SigningPolicy): Promise<Result<string, string>> {
  const now = Math.floor(policy.now / 1000) * 1000;
  const notBefore = policy.durationMs < shortMs ? now : now - backdateMs;
  let notAfter = notBefore + policy.durationMs;
  if (notAfter > ca.notAfter) notAfter = ca.notAfter;
  if (notBefore >= ca.notAfter) return fail(`the signer has expired: NotAfter=${new Date(ca.notAfter).toISOString()}`);
  const x509 = loadX509();
  const caCert = new x509.X509Certificate(ca.certDer);
  const { keyUsage, extendedKeyUsages } = certificateUsages(policy.usages);
  const extensions: X509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
  if (keyUsage !== 0) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extendedKeyUsages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(extendedKeyUsages));
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(caCert));
  const names: X509.JsonGeneralName[] = [
    ...request.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...request.emailAddresses.map((value) => ({ type: 'email' as const, value })),
    ...request.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
    ...request.uris.map((value) => ({ type: 'url' as const, value })),
  ];
  // RFC 5280 §4.2.1.6: the extension is critical when the subject is empty.
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names, request.subject.toString() === ''));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: request.subject,
    issuer: caCert.subjectName,
    notBefore: new Date(notBefore),
    notAfter: new Date(notAfter),
    publicKey: request.publicKey,
    signingKey: ca.key,
    signingAlgorithm: ca.signingAlgorithm as Parameters<typeof x509.X509CertificateGenerator.create>[0]['signingAlgorithm'] & object,
    extensions,
  });
  return ok(encodePem('CERTIFICATE', new Uint8Array(cert.rawData)));
}
