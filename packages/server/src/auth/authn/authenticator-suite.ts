/**
 * The shared conformance suite every authentication method runs (as the storage backends share one): success,
 * wrong credential, expired credential, missing credential (falls through to the next method), and malformed
 * input, which must be rejected without a crash and never authenticate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';

/** What a method's suite run needs. */
export interface AuthenticatorFixture {
  readonly authenticator: Authenticator;
  /** A request the method accepts and the identity it must yield. */
  readonly valid: AuthenticationRequest;
  readonly expected: { readonly username: string; readonly groups?: readonly string[]; readonly uid?: string };
  /** A request with this method's credential, but the wrong one. */
  readonly wrong: AuthenticationRequest;
  /** A request with an expired credential; a string says why the method has none. */
  readonly expired: AuthenticationRequest | string;
  /** Requests with malformed credentials of this method. */
  readonly malformed: readonly AuthenticationRequest[];
  close?(): Promise<void> | void;
}

/** A request with headers and no client certificate. */
export function requestWith(headers: IncomingHttpHeaders, clientCertificates: readonly Buffer[] = []): AuthenticationRequest {
  return { headers, clientCertificates };
}

/** A bearer-token request. */
export function bearer(token: string): AuthenticationRequest {
  return requestWith({ authorization: `Bearer ${token}` });
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * Malformed bearer tokens every token method must reject: garbage base64, a truncated JWT, `alg: none`, an HMAC
 * token keyed with public data, a huge token, empty segments.
 */
export function malformedTokens(validJwt?: string): string[] {
  const claims = { iss: 'https://example.invalid', sub: 'x', exp: Math.floor(Date.now() / 1000) + 600 };
  const out = [
    '%%%not-base64%%%',
    'a.b.c',
    '..',
    `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
    `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.${Buffer.from('forged').toString('base64url')}`,
    'x'.repeat(1024 * 1024),
    `${b64({ alg: 'RS256' })}.!!!.###`,
  ];
  if (validJwt !== undefined) {
    out.push(validJwt.slice(0, validJwt.length - 10));
    const [h, p] = validJwt.split('.');
    out.push(`${h}.${p}`);
    // The valid payload under `alg: none`: the classic forgery.
    out.push(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`);
  }
  return out;
}

/** Runs the suite for one method. */
export function runAuthenticatorSuite(method: string, make: () => Promise<AuthenticatorFixture>): void {
  const withFixture = (body: (f: AuthenticatorFixture) => Promise<void>) => async () => {
    const f = await make();
    try {
      await body(f);
    } finally {
      await f.close?.();
    }
  };
  test(`${method}: a valid credential authenticates`, withFixture(async (f) => {
    const r = await f.authenticator.authenticate(f.valid);
    assert.equal(r.kind, 'user', JSON.stringify(r));
    if (r.kind !== 'user') return;
    assert.equal(r.user.username, f.expected.username);
    for (const g of f.expected.groups ?? []) assert.ok(r.user.groups.includes(g), `group ${g} in ${r.user.groups.join(',')}`);
    if (f.expected.uid !== undefined) assert.equal(r.user.uid, f.expected.uid);
  }));
  test(`${method}: a wrong credential is rejected`, withFixture(async (f) => {
    const r = await f.authenticator.authenticate(f.wrong);
    assert.equal(r.kind, 'error', JSON.stringify(r));
  }));
  test(`${method}: an expired credential is rejected`, withFixture(async (f) => {
    if (typeof f.expired === 'string') {
      // Nothing to expire: the suite records why instead of passing silently.
      assert.ok(f.expired.length > 0);
      return;
    }
    const r = await f.authenticator.authenticate(f.expired);
    assert.equal(r.kind, 'error', JSON.stringify(r));
  }));
  test(`${method}: a request without this method's credential falls through`, withFixture(async (f) => {
    assert.deepEqual(await f.authenticator.authenticate(requestWith({})), { kind: 'none' });
    assert.deepEqual(await f.authenticator.authenticate(requestWith({ authorization: 'Basic dXNlcjpwYXNz' })), { kind: 'none' });
  }));
  test(`${method}: malformed input is rejected without a crash`, withFixture(async (f) => {
    assert.ok(f.malformed.length > 0);
    for (const request of f.malformed) {
      const r = await f.authenticator.authenticate(request);
      assert.equal(r.kind, 'error', `${JSON.stringify(r)} for ${JSON.stringify(request.headers).slice(0, 120)}`);
    }
  }));
}
