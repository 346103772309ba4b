/**
 * Certificate requests for tests: a fresh key pair (ECDSA P-256 by default, or RSA) and a PKCS#10 request for a
 * subject and subject alternative names, signed with that key, as `openssl req` would make them.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A request and its key, PEM. */
export interface TestRequest {
  readonly requestPem: string;
  readonly keyPem: string;
}

/** What to ask for. */
export interface TestRequestOptions {
  readonly commonName?: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly emailAddresses?: readonly string[];
  readonly uris?: readonly string[];
  readonly keyType?: 'ecdsa' | 'rsa';
  /** Extra extensions to request (a CA bit, key usages) that signers must drop. */
  readonly extensions?: readonly x509.Extension[];
}

const escape = (v: string): string => v.replace(/([,+"\\<>;=#])/g, '\\$1');

/** Generates a key and a request. */
export async function testCertificateRequest(options: TestRequestOptions = {}): Promise<TestRequest> {
  const algorithm = options.keyType === 'rsa'
    ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 }
    : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const subject = [
    ...(options.commonName !== undefined ? [`CN=${escape(options.commonName)}`] : []),
    ...(options.organizations ?? []).map((o) => `O=${escape(o)}`),
  ].join(', ');
  const names: x509.JsonGeneralName[] = [
    ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(options.emailAddresses ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(options.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const extensions: x509.Extension[] = [...(options.extensions ?? [])];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: algorithm, extensions });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { requestPem: csr.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}
