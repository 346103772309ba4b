/**
 * The API server's identity (k8s.io/apiserver's APIServerID with the APIServerIdentity gate): `apiserver-` and the
 * lower-case unpadded base32 of the first 16 bytes of SHA-256 over the host name and the server's identity value,
 * each prefixed by its 16-bit length (cryptobyte's length-prefixed form), so that replicas on different hosts have
 * different identities and the same host keeps its identity across restarts.
 */
import { createHash } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower case. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** A string prefixed by its UTF-8 length as a big-endian uint16. */
function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** The identity of the server named `identity` (`kube-apiserver` in kube) on `host`. */
export function apiServerId(host: string, identity: string): string {
  const hash = createHash('sha256').update(Buffer.concat([lengthPrefixed(host), lengthPrefixed(identity)])).digest();
  return `apiserver-${base32(hash.subarray(0, 16))}`;
}
