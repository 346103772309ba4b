/**
 * The rule kube applies to `status.certificate` of a CertificateSigningRequest (certificates validation
 * validateCertificate): one or more `CERTIFICATE` PEM blocks without headers, each holding a certificate that
 * parses; explanatory text around the blocks is allowed. Empty content is valid (not issued yet).
 */
import { X509Certificate } from 'node:crypto';
import { decodePemBlocks } from './pem.js';

/** Why `pem` is not acceptable as issued certificates, or undefined when it is. */
export function certificatePemError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = decodePemBlocks(pem.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headers.length > 0) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(block.bytes);
    } catch (e) {
      return `x509: malformed certificate: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return undefined;
}

/** The end of validity (ms) of the first certificate of `pem`, or undefined when there is none that parses. */
export function firstCertificateNotAfter(pem: Buffer): number | undefined {
  const block = decodePemBlocks(pem.toString('latin1'))[0];
  if (block === undefined || block.type !== 'CERTIFICATE') return undefined;
  try {
    const at = Date.parse(new X509Certificate(block.bytes).validTo);
    return Number.isNaN(at) ? undefined : at;
  } catch {
    return undefined;
  }
}
