/**
 * Certificate issuing with @peculiar/x509 over node's WebCrypto, ECDSA P-256: the self-signed CA, the serving
 * certificate and client certificates. Keys are exported as PKCS#8 PEM (`PRIVATE KEY`), which node's TLS, Go's
 * crypto/tls (kubectl) and client-go all read.
 */
import { webcrypto, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';
import { loadX509 } from './x509-library.js';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

// Issuing is all this module does: the library loads with it.
const x509 = loadX509();

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const dayMs = 24 * 60 * 60 * 1000;

/** A certificate with its key, both PEM. */
export interface CertAndKey {
  readonly certPem: string;
  readonly keyPem: string;
}

/** A loaded signer (the CA). */
interface Signer {
  readonly cert: X509.X509Certificate;
  readonly key: CryptoKey;
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f; // positive
  return bytes.toString('hex');
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function loadSigner(ca: CertAndKey): Promise<Signer> {
  const der = x509.PemConverter.decodeFirst(ca.keyPem);
  const key = await webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
  return { cert: new x509.X509Certificate(ca.certPem), key: key as CryptoKey };
}

/** A self-signed CA valid for ten years. */
export async function createCa(commonName: string): Promise<CertAndKey> {
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 3650 * dayMs),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** What a leaf certificate is for. */
export type LeafUsage = 'server' | 'client';

/** Options of a leaf certificate. */
export interface LeafOptions {
  /** Subject, e.g. `CN=admin, O=system:masters` given as parts. */
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly usage: LeafUsage;
  /** Subject alternative names (server certificates): each is an IP when it parses as one, a DNS name otherwise. */
  readonly sans?: readonly string[];
  readonly validDays?: number;
}

function escapeRdn(value: string): string {
  return value.replace(/([,+"\\<>;=#])/g, '\\$1');
}

/** Issues a leaf certificate signed by the CA. */
export async function issueLeaf(ca: CertAndKey, options: LeafOptions): Promise<CertAndKey> {
  const signer = await loadSigner(ca);
  const keys = await newKeys();
  const now = Date.now();
  const subject = [`CN=${escapeRdn(options.commonName)}`, ...(options.organizations ?? []).map((o) => `O=${escapeRdn(o)}`)].join(', ');
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([options.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(signer.cert),
  ];
  if (options.sans && options.sans.length > 0) {
    extensions.push(new x509.SubjectAlternativeNameExtension(
      options.sans.map((s) => (isIP(s) ? { type: 'ip' as const, value: s } : { type: 'dns' as const, value: s })),
    ));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: signer.cert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + (options.validDays ?? 365) * dayMs),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: signer.key,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}
