/**
 * The `jws-kubeconfig-<token-id>` signatures of `cluster-info` (document 2 §Bootstrap tokens): a JWS in compact form
 * over the `kubeconfig` value, HS256 with the full token `<token-id>.<token-secret>` as the shared key, the token id
 * as `kid`, and the payload cut out (detached: `<header>..<signature>`). The same input always gives the same
 * signature, so an unchanged ConfigMap is not written again.
 */
import { lazyImport } from '../../lazy-module.js';

/** The JWS library, loaded by the first signature made. */
const jose = lazyImport(() => import('jose'));

/** The detached signature of `content` for a token. */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const { CompactSign } = await jose();
  const key = new TextEncoder().encode(`${tokenId}.${tokenSecret}`);
  const jws = await new CompactSign(new TextEncoder().encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenId }).sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}
