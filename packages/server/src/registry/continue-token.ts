/**
 * The continue token of a paginated list. Like kube's etcd3 token it holds the revision of the first chunk (so every
 * chunk reads the same snapshot) and the key to start at relative to the collection's prefix; a revision of -1 means
 * "continue at the newest revision" (the token a 410 for an expired token carries). Unlike kube's it is signed with
 * an HMAC under a key of this process, so a client can neither forge one nor point one at another collection's keys:
 * it stays opaque, and anything that is not a token this server issued is a 400.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, fail, ok, type Result } from '@svc-apiserver/api';

/** A decoded continue token. */
export interface ContinueToken {
  /** The snapshot's revision; -1 for "the newest". */
  readonly revision: number;
  /** Key to start at (inclusive), relative to the list's prefix. */
  readonly start: string;
  /** Keys from `start` on in the snapshot, when the first chunk knew it (for `remainingItemCount`). */
  readonly remaining?: number;
}

/** Signs and checks tokens. */
export interface ContinueTokens {
  encode(token: ContinueToken): string;
  /** 400 BadRequest (kube's `invalid continue token: ...`) for anything this server did not issue. */
  decode(value: string): Result<ContinueToken>;
}

/** The 410 message for a token whose snapshot was compacted away (kube-apiserver's wording). */
export const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

const signatureBytes = 16;

/** Tokens signed with `key` (default: a random key of this process, so tokens die with it). */
export function continueTokens(key: Uint8Array = randomBytes(32)): ContinueTokens {
  const sign = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest().subarray(0, signatureBytes);
  const invalid = (why: string): Result<ContinueToken> => (fail(badRequest(`invalid continue token: continue key is not valid: ${why}`)));
  return {
    encode(token) {
      const payload = JSON.stringify({ v: 1, rv: token.revision, start: token.start, ...(token.remaining !== undefined ? { n: token.remaining } : {}) });
      const body = Buffer.from(payload, 'utf8');
      return Buffer.concat([body, sign(payload)]).toString('base64url');
    },
    decode(value) {
      if (!/^[A-Za-z0-9_-]+$/.test(value)) return invalid('illegal base64 data');
      const raw = Buffer.from(value, 'base64url');
      if (raw.length <= signatureBytes) return invalid('too short');
      const payload = raw.subarray(0, raw.length - signatureBytes).toString('utf8');
      const signature = raw.subarray(raw.length - signatureBytes);
      if (!timingSafeEqual(signature, sign(payload))) return invalid('not issued by this server');
      let parsed: { v?: unknown; rv?: unknown; start?: unknown; n?: unknown };
      try {
        parsed = JSON.parse(payload) as typeof parsed;
      } catch {
        return invalid('malformed');
      }
      const { rv, start, n } = parsed;
      if (parsed.v !== 1 || typeof rv !== 'number' || !Number.isInteger(rv) || (rv <= 0 && rv !== -1)) {
        return invalid('incorrect encoded start resourceVersion');
      }
      if (typeof start !== 'string' || start === '') return invalid('encoded start key empty');
      const token: ContinueToken = { revision: rv, start };
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return ok({ ...token, remaining: n });
      return ok(token);
    },
  };
}
