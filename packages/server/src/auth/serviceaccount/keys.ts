/**
 * Service account token keys: public keys for verification read from PEM files (`--service-account-key-file`:
 * RSA or ECDSA public or private keys, several per file), and the signing key (`--service-account-signing-key-file`,
 * or one generated in the data directory on first start, as the PKI is).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { pemBlocks } from '../authn/ca-bundle.js';

/** A verification key with its key id and the JWS algorithms it can check. */
export interface VerificationKey {
  readonly key: KeyObject;
  /** kube-apiserver's key id: unpadded base64url SHA-256 of the DER public key. */
  readonly kid: string;
  readonly algorithms: readonly string[];
}

/** The signing key with its key id and algorithm. */
export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly kid: string;
  readonly algorithm: string;
}

/** File name of the generated signing key in the data directory. */
export const generatedSigningKeyFile = 'sa.key';

const keyLabels = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'PRIVATE KEY']);

/** The key id of a public key. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The JWS algorithms a public key can verify (RS* for RSA; the curve's ES* for ECDSA). */
function algorithmsOf(publicKey: KeyObject): string[] | undefined {
  if (publicKey.asymmetricKeyType === 'rsa') return ['RS256', 'RS384', 'RS512'];
  if (publicKey.asymmetricKeyType === 'ec') {
    const curve = publicKey.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return ['ES256'];
    if (curve === 'secp384r1') return ['ES384'];
    if (curve === 'secp521r1') return ['ES512'];
  }
  return undefined;
}

/** The verification key of a public key (undefined for unsupported key types). */
export function verificationKey(publicKey: KeyObject): VerificationKey | undefined {
  const algorithms = algorithmsOf(publicKey);
  return algorithms === undefined ? undefined : { key: publicKey, kid: keyId(publicKey), algorithms };
}

/** Reads every RSA/ECDSA key of PEM text as a verification key; an error when there is none or one is bad. */
export function parseVerificationKeys(pem: string, source: string): Result<VerificationKey[], string> {
  const out: VerificationKey[] = [];
  for (const b of pemBlocks(pem)) {
    if (!keyLabels.has(b.label)) continue;
    let key: VerificationKey | undefined;
    try {
      key = verificationKey(createPublicKey(b.block));
    } catch (e) {
      return fail(`${source}: unparsable ${b.label}: ${(e as Error).message}`);
    }
    if (key === undefined) return fail(`${source}: only RSA and ECDSA keys are supported`);
    out.push(key);
  }
  if (out.length === 0) return fail(`${source}: data does not contain any valid RSA or ECDSA public keys`);
  return ok(out);
}

/** Reads `--service-account-key-file` values. */
export async function loadVerificationKeys(paths: readonly string[]): Promise<Result<VerificationKey[], string>> {
  const out: VerificationKey[] = [];
  for (const p of paths) {
    let text: string;
    try {
      text = await readFile(p, 'utf8');
    } catch (e) {
      return fail(`cannot read service account key file: ${(e as Error).message}`);
    }
    const parsed = parseVerificationKeys(text, p);
    if (!parsed.ok) return parsed;
    out.push(...parsed.value);
  }
  return ok(out);
}

/** A signing key from a private key. */
export function signingKey(privateKey: KeyObject): SigningKey | undefined {
  const publicKey = createPublicKey(privateKey);
  const algorithms = algorithmsOf(publicKey);
  if (algorithms === undefined) return undefined;
  return { privateKey, publicKey, kid: keyId(publicKey), algorithm: algorithms[0]! };
}

/**
 * The signing key: read from `path` when given, else from the data directory, generating an RSA 2048 key there
 * on first start (written 0600 through a temp file so a crash never leaves half a key).
 */
export async function ensureSigningKey(path: string, dataDir: string): Promise<Result<SigningKey, string>> {
  const file = path !== '' ? path : join(dataDir, generatedSigningKeyFile);
  let pem: string | undefined;
  try {
    pem = await readFile(file, 'utf8');
  } catch (e) {
    if (path !== '' || (e as NodeJS.ErrnoException).code !== 'ENOENT') {
      return fail(`cannot read service account signing key: ${(e as Error).message}`);
    }
  }
  if (pem === undefined) {
    const { privateKey } = await new Promise<{ privateKey: KeyObject }>((resolve, reject) =>
      generateKeyPair('rsa', { modulusLength: 2048 }, (err, _pub, priv) => (err ? reject(err) : resolve({ privateKey: priv }))));
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { writeFileAtomic } = await import('../../pki/ensure-pki.js');
    await writeFileAtomic(file, pem, 0o600);
  }
  const block = pemBlocks(pem).find((b) => b.label.endsWith('PRIVATE KEY'));
  if (block === undefined) return fail(`${file}: no private key found`);
  let key: SigningKey | undefined;
  try {
    key = signingKey(createPrivateKey(block.block));
  } catch (e) {
    return fail(`${file}: unparsable private key: ${(e as Error).message}`);
  }
  return key === undefined ? fail(`${file}: only RSA and ECDSA keys are supported`) : ok(key);
}
