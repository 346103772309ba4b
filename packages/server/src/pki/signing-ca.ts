/**
 * A CA that signs certificate requests (kube-controller-manager's `--cluster-signing-cert-file` and
 * `--cluster-signing-key-file`, or a signer's own pair): the certificate and its private key, RSA, ECDSA or Ed25519,
 * in any PEM form Go reads (PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`, SEC1 `EC PRIVATE KEY`).
 */
import { createPrivateKey, createPublicKey, webcrypto, X509Certificate as NodeX509, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fail, ok, type Result } from '@svc-apiserver/api';

type CryptoKey = webcrypto.CryptoKey;

/** A loaded signing CA. */
export interface SigningCa {
  readonly certPem: string;
  /** The certificate's DER (the issuer name and key identifier of what it signs come from it). */
  readonly certDer: Buffer;
  readonly key: CryptoKey;
  /** The algorithm certificates are signed with (SHA-256 for RSA and P-256, the curve's hash for other curves). */
  readonly signingAlgorithm: Algorithm | EcdsaParams;
  /** End of the CA's validity (ms since the epoch): nothing it signs outlives it. */
  readonly notAfter: number;
}

interface Algorithm {
  readonly name: string;
  readonly hash?: string;
}
interface EcdsaParams {
  readonly name: 'ECDSA';
  readonly hash: string;
}

const curves: Readonly<Record<string, { namedCurve: string; hash: string }>> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
};

/** The WebCrypto import and signing parameters of a private key, or undefined for a key type not supported. */
function algorithmsOf(key: KeyObject): { importAs: Parameters<typeof webcrypto.subtle.importKey>[2]; sign: Algorithm | EcdsaParams } | undefined {
  if (key.asymmetricKeyType === 'rsa') {
    return { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } };
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = curves[key.asymmetricKeyDetails?.namedCurve ?? ''];
    return curve === undefined ? undefined : { importAs: { name: 'ECDSA', namedCurve: curve.namedCurve }, sign: { name: 'ECDSA', hash: curve.hash } };
  }
  if (key.asymmetricKeyType === 'ed25519') return { importAs: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
  return undefined;
}

/** Loads a CA from its certificate and key (PEM); an error says what is wrong with them. */
export async function loadSigningCa(certPem: string, keyPem: string): Promise<Result<SigningCa, string>> {
  let nodeCert: NodeX509;
  let privateKey: KeyObject;
  try {
    nodeCert = new NodeX509(certPem);
  } catch (e) {
    return fail(`unparsable CA certificate: ${(e as Error).message}`);
  }
  try {
    privateKey = createPrivateKey(keyPem);
  } catch (e) {
    return fail(`unparsable CA private key: ${(e as Error).message}`);
  }
  const spki = (k: KeyObject): string => k.export({ type: 'spki', format: 'der' }).toString('base64');
  if (spki(createPublicKey(privateKey)) !== spki(nodeCert.publicKey)) return fail('the CA private key does not match its certificate');
  const algorithms = algorithmsOf(privateKey);
  if (algorithms === undefined) return fail(`unsupported CA key type ${privateKey.asymmetricKeyType ?? 'unknown'}`);
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, algorithms.importAs, false, ['sign']);
  return ok({
    certPem,
    certDer: nodeCert.raw,
    key,
    signingAlgorithm: algorithms.sign,
    notAfter: Date.parse(nodeCert.validTo),
  });
}

/** Loads a CA from two PEM files. */
export async function loadSigningCaFiles(certFile: string, keyFile: string): Promise<Result<SigningCa, string>> {
  let certPem: string;
  let keyPem: string;
  try {
    [certPem, keyPem] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  } catch (e) {
    return fail((e as Error).message);
  }
  const loaded = await loadSigningCa(certPem, keyPem);
  return loaded.ok ? loaded : fail(`${certFile}, ${keyFile}: ${loaded.error}`);
}
