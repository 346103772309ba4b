/**
 * The warning kube-apiserver 1.27 returns for a `<domain>/tls` Secret whose pair does not load (secret strategy's
 * warningsForSecret): the error Go's tls.X509KeyPair gives for `tls.crt` and `tls.key`, in its words. The key is
 * read and matched with Node's crypto module.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { decodePemBlocks } from '../../pki/pem.js';

/** Go's fmt %v of a string slice. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** tls.X509KeyPair's error for a certificate and key in PEM, or undefined when they load and match. */
export function x509KeyPairError(certPem: Buffer, keyPem: Buffer): string | undefined {
  const certBlocks = decodePemBlocks(certPem.toString('latin1'));
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  const skipped = certBlocks.filter((b) => b.type !== 'CERTIFICATE').map((b) => b.type);
  if (certs.length === 0) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]!.endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  const keyBlocks = decodePemBlocks(keyPem.toString('latin1'));
  const keyIndex = keyBlocks.findIndex((b) => b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY'));
  if (keyIndex < 0) {
    const skippedKeys = keyBlocks.map((b) => b.type);
    if (skippedKeys.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skippedKeys.length === 1 && skippedKeys[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skippedKeys)}`;
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certs[0]!.bytes);
  } catch {
    return 'x509: malformed certificate';
  }
  let key: KeyObject;
  const block = keyBlocks[keyIndex]!;
  try {
    // Go tries PKCS#1, then PKCS#8, then SEC 1 on the DER, whatever the block's label says.
    key = tryKey(block.bytes);
  } catch {
    return 'tls: failed to parse private key';
  }
  const publicKey = certificate.publicKey;
  if (publicKey.asymmetricKeyType !== key.asymmetricKeyType) return 'tls: private key type does not match public key type';
  const derived = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return derived.equals(publicKey.export({ type: 'spki', format: 'der' })) ? undefined : 'tls: private key does not match public key';
}

function tryKey(der: Buffer): KeyObject {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // the next encoding
    }
  }
  throw new Error('no key encoding matched');
}
