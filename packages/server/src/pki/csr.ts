/**
 * PKCS#10 certificate requests as kube reads `spec.request` (pkg/apis/certificates ParseCSR and
 * x509.CertificateRequest.CheckSignature): the first PEM block must be a `CERTIFICATE REQUEST`, it must parse, and
 * its self-signature must verify with the key it carries. Parsing is @peculiar/x509's (loaded by the first request
 * parsed); the signature is checked with node:crypto so that validation stays synchronous. Every failure is a
 * value, never a throw: the bytes come from clients.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { decodePemBlocks } from './pem.js';
import { loadX509 } from './x509-library.js';

/** What the signers and the admission plugins read of a request (Go's x509.CertificateRequest fields). */
export interface CertificateRequest {
  /** The DER of the request. */
  readonly der: Buffer;
  /** The subject, as it will be copied into the certificate. */
  readonly subject: X509.Name;
  /** The subject common name (the last CN, as Go's pkix.Name keeps it); `''` when absent. */
  readonly commonName: string;
  /** Every organization (O) of the subject, in order. */
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly uris: readonly string[];
  /** The requested public key (SubjectPublicKeyInfo). */
  readonly publicKey: X509.PublicKey;
}

/** Limits of the ASN.1 reader: a request is a few KiB; deeply nested or huge input is refused, not walked. */
const parseOptions = { berOptions: { maxDepth: 32, maxNodes: 10_000, maxContentLength: 64 * 1024 } };

/** The first TLV inside the outer SEQUENCE of `der` (the signed CertificationRequestInfo), or undefined. */
function firstElement(der: Buffer): Buffer | undefined {
  const header = (at: number): { start: number; end: number } | undefined => {
    if (at + 2 > der.length) return undefined;
    let len = der[at + 1]!;
    let start = at + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4 || start + n > der.length) return undefined;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
      start += n;
    }
    return start + len > der.length ? undefined : { start, end: start + len };
  };
  if (der[0] !== 0x30) return undefined;
  const outer = header(0);
  if (outer === undefined) return undefined;
  const inner = header(outer.start);
  return inner === undefined ? undefined : der.subarray(outer.start, inner.end);
}

const hashNames: Readonly<Record<string, string>> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** Checks the request's self-signature (CheckSignature); an error names why it does not verify. */
function checkSignature(csr: X509.Pkcs10CertificateRequest, der: Buffer): string | undefined {
  const signed = firstElement(der);
  if (signed === undefined) return 'x509: malformed certificate request';
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    return 'x509: unsupported public key';
  }
  let algorithm: { name: string; hash?: { name: string } };
  try {
    algorithm = csr.signatureAlgorithm as { name: string; hash?: { name: string } };
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
  const signature = Buffer.from(csr.signature);
  let verified: boolean;
  try {
    if (algorithm.name === 'Ed25519') verified = verify(null, signed, key, signature);
    else if (algorithm.name === 'RSASSA-PKCS1-v1_5' || algorithm.name === 'ECDSA') {
      const hash = hashNames[algorithm.hash?.name ?? ''];
      if (hash === undefined) return 'x509: cannot verify signature: algorithm unimplemented';
      if ((algorithm.name === 'ECDSA') !== (key.asymmetricKeyType === 'ec')) return 'x509: signature algorithm does not match the public key';
      verified = verify(hash, signed, key, signature);
    } else {
      return 'x509: cannot verify signature: algorithm unimplemented';
    }
  } catch {
    verified = false;
  }
  return verified ? undefined : 'x509: the certificate request signature does not verify';
}

/** Names of one type from the subjectAltName extension. */
function altNames(csr: X509.Pkcs10CertificateRequest): { dns: string[]; ip: string[]; email: string[]; uri: string[] } {
  const out = { dns: [] as string[], ip: [] as string[], email: [] as string[], uri: [] as string[] };
  const ext = csr.getExtension('2.5.29.17');
  if (ext === null) return out;
  const san = new (loadX509().SubjectAlternativeNameExtension)(ext.rawData);
  for (const n of san.names.items) {
    if (n.type === 'dns') out.dns.push(n.value);
    else if (n.type === 'ip') out.ip.push(n.value);
    else if (n.type === 'email') out.email.push(n.value);
    else if (n.type === 'url') out.uri.push(n.value);
  }
  return out;
}

/**
 * Parses `pem` (the decoded `spec.request`) and verifies its signature. kube's words for the common failures:
 * "PEM block type must be CERTIFICATE REQUEST".
 */
export function parseCertificateRequest(pem: Buffer | string): Result<CertificateRequest, string> {
  const text = typeof pem === 'string' ? pem : pem.toString('latin1');
  const block = decodePemBlocks(text)[0];
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') return fail('PEM block type must be CERTIFICATE REQUEST');
  try {
    const csr = new (loadX509().Pkcs10CertificateRequest)(block.bytes, parseOptions);
    const invalidSignature = checkSignature(csr, block.bytes);
    if (invalidSignature !== undefined) return fail(invalidSignature);
    const names = altNames(csr);
    const subject = csr.subjectName;
    return ok({
      der: block.bytes,
      subject,
      commonName: subject.getField('CN').at(-1) ?? '',
      organizations: subject.getField('O'),
      dnsNames: names.dns,
      ipAddresses: names.ip,
      emailAddresses: names.email,
      uris: names.uri,
      publicKey: csr.publicKey,
    });
  } catch (e) {
    return fail(`x509: malformed certificate request: ${e instanceof Error ? e.message : String(e)}`);
  }
}
