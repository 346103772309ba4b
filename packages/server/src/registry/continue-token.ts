/**
 * The continue token of a paginated list: opaque to clients, it holds the revision of the first chunk (so every
 * chunk reads the same snapshot) and the key to start at, relative to the collection's prefix (as kube's
 * etcd3 continue token does). Hardening (signing, versioning) comes with a later issue.
 */
import { badRequest } from '@svc-apiserver/api';
import type { Outcome } from '../http/context.js';

/** A decoded continue token. */
export interface ContinueToken {
  readonly revision: number;
  /** Key to start at, relative to the list's prefix. */
  readonly start: string;
}

/** The 410 message for a token whose revision was compacted away (kube-apiserver's wording). */
export const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Encodes a token. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta/v1', rv: token.revision, start: token.start }), 'utf8').toString('base64url');
}

/** Decodes a token; 400 BadRequest when it is not one of ours. */
export function decodeContinue(value: string): Outcome<ContinueToken> {
  const bad = { ok: false, status: badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta/v1)') } as const;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { v?: unknown; rv?: unknown; start?: unknown };
    if (parsed.v !== 'meta/v1' || typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv <= 0) return bad;
    if (typeof parsed.start !== 'string' || parsed.start.includes('..') || parsed.start.startsWith('/')) return bad;
    return { ok: true, value: { revision: parsed.rv, start: parsed.start } };
  } catch {
    return bad;
  }
}
