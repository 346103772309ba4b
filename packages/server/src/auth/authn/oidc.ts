/**
 * OpenID Connect ID token authentication (kube-apiserver's `--oidc-*` flags, document 2 §OpenID Connect tokens):
 * one trusted issuer whose discovery document and keys are fetched over TLS (keys refetched when a token names
 * an unknown key id), tokens checked for signature, algorithm, issuer, expiry, client id (`aud`, or `azp`) and
 * required claims; the username and groups come from configured claims with their prefixes.
 */
import type { createLocalJWKSet, JSONWebKeySet, JWTPayload } from 'jose';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { AuthenticationResult, TokenAuthenticator } from './authenticator.js';
import { httpsGetJson } from '../../outbound/https-request.js';
import { lazyImport } from '../../lazy-module.js';

/** The JWT library, loaded when an OIDC issuer is configured. */
const jose = lazyImport(() => import('jose'));

/** The `--oidc-*` settings. */
export interface OidcOptions {
  readonly issuerUrl: string;
  readonly clientId: string;
  /** Default `sub`. */
  readonly usernameClaim: string;
  /** `''` unset (then `<issuer>#` unless the claim is `email`), `-` none. */
  readonly usernamePrefix: string;
  readonly groupsClaim: string;
  readonly groupsPrefix: string;
  readonly requiredClaims: Readonly<Record<string, string>>;
  /** PEM CA bundle of the provider's TLS certificate; the host's roots when absent. */
  readonly caPem?: string;
  /** Default `['RS256']`. */
  readonly signingAlgs: readonly string[];
  /** Least time between two key fetches caused by unknown key ids, in ms (default 10 s). */
  readonly refreshCooldownMs?: number;
  readonly log?: (message: string) => void;
}

/** The OIDC authenticator, with a way to stop its retries. */
export interface OidcAuthenticator extends TokenAuthenticator {
  close(): void;
}

/** Checks the settings as kube-apiserver does at start. */
export function validateOidcOptions(o: OidcOptions): string | undefined {
  let u: URL;
  try {
    u = new URL(o.issuerUrl);
  } catch {
    return `--oidc-issuer-url: invalid URL ${JSON.stringify(o.issuerUrl)}`;
  }
  if (u.protocol !== 'https:') return '--oidc-issuer-url must use the https scheme';
  if (o.clientId === '') return '--oidc-client-id must be set when --oidc-issuer-url is set';
  const supported = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];
  for (const a of o.signingAlgs) if (!supported.includes(a)) return `--oidc-signing-algs: unsupported algorithm ${JSON.stringify(a)}`;
  return undefined;
}

const rejected = (message: string): AuthenticationResult => ({ kind: 'error', message });

/** The OIDC authenticator. Discovery starts at once and is retried until it succeeds. */
export function oidcAuthenticator(o: OidcOptions): OidcAuthenticator {
  const issuer = o.issuerUrl;
  const target = o.caPem !== undefined ? { ca: o.caPem } : {};
  const cooldown = o.refreshCooldownMs ?? 10_000;
  let jwksUri: string | undefined;
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let lastKeyFetch = 0;
  let inFlight: Promise<boolean> | undefined;
  let lastFailure = 0;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const fetchKeys = async (): Promise<boolean> => {
    if (jwksUri === undefined) {
      const discovery = await httpsGetJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, target);
      if (!discovery.ok) throw new Error(`oidc discovery failed: ${discovery.error}`);
      const doc = discovery.value as { issuer?: unknown; jwks_uri?: unknown };
      if (doc.issuer !== issuer) throw new Error(`oidc discovery: issuer ${JSON.stringify(doc.issuer)} does not match ${JSON.stringify(issuer)}`);
      if (typeof doc.jwks_uri !== 'string') throw new Error('oidc discovery: no jwks_uri');
      jwksUri = doc.jwks_uri;
    }
    const jwks = await httpsGetJson(jwksUri, target);
    if (!jwks.ok) throw new Error(`oidc keys: ${jwks.error}`);
    keys = (await jose()).createLocalJWKSet(jwks.value as JSONWebKeySet);
    lastKeyFetch = Date.now();
    return true;
  };

  /** Runs one fetch at a time; concurrent callers share it. */
  const refresh = (): Promise<boolean> => {
    inFlight ??= fetchKeys().then(
      (v) => v,
      (e: unknown) => {
        lastFailure = Date.now();
        o.log?.((e as Error).message);
        return false;
      },
    ).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const scheduleRetry = (): void => {
    if (closed || keys !== undefined) return;
    retry = setTimeout(() => void refresh().then((ok) => ok || scheduleRetry()), cooldown);
    retry.unref();
  };
  void refresh().then((ok) => ok || scheduleRetry());

  const verify = async (token: string): Promise<Result<JWTPayload, string>> => {
    if (keys === undefined) {
      if (inFlight === undefined && Date.now() - lastFailure < cooldown) return fail('oidc authenticator not initialized');
      if (!(await refresh())) return fail('oidc authenticator not initialized');
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const { payload } = await (await jose()).jwtVerify(token, keys!, { issuer, algorithms: [...o.signingAlgs], requiredClaims: ['exp'] });
        return ok(payload);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'ERR_JWKS_NO_MATCHING_KEY' && attempt === 0 && Date.now() - lastKeyFetch >= cooldown && (await refresh())) continue;
        if (code === 'ERR_JWT_EXPIRED') return fail('oidc: token is expired');
        return fail('oidc: token could not be verified');
      }
    }
    return fail('oidc: token could not be verified');
  };

  return {
    name: 'oidc',
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
    },
    async authenticateToken(token) {
      const { decodeJwt } = await jose();
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        return { kind: 'none' };
      }
      // A token of another issuer belongs to another method.
      if (iss !== issuer) return { kind: 'none' };
      const verified = await verify(token);
      if (!verified.ok) return rejected(verified.error);
      const claims = verified.value as Record<string, unknown>;
      const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
      if (!aud.includes(o.clientId) && claims.azp !== o.clientId) return rejected('oidc: token was not issued for this client');
      for (const [k, v] of Object.entries(o.requiredClaims)) {
        if (claims[k] !== v) return rejected(`oidc: required claim ${k} is missing or has another value`);
      }
      const rawName = claims[o.usernameClaim];
      if (typeof rawName !== 'string' || rawName === '') return rejected(`oidc: claim ${JSON.stringify(o.usernameClaim)} not present`);
      if (o.usernameClaim === 'email' && claims.email_verified !== undefined && claims.email_verified !== true) {
        return rejected('oidc: email not verified');
      }
      const prefix = o.usernamePrefix === '-' ? '' : o.usernamePrefix !== '' ? o.usernamePrefix : o.usernameClaim === 'email' ? '' : `${issuer}#`;
      let groups: string[] = [];
      if (o.groupsClaim !== '' && claims[o.groupsClaim] !== undefined) {
        const g = claims[o.groupsClaim];
        // kube-apiserver accepts one string as a single group as well as an array of strings.
        if (typeof g === 'string') groups = [g];
        else if (Array.isArray(g) && g.every((x) => typeof x === 'string')) groups = g as string[];
        else return rejected(`oidc: claim ${JSON.stringify(o.groupsClaim)} is not a string or an array of strings`);
        groups = groups.map((x) => o.groupsPrefix + x);
      }
      return { kind: 'user', method: 'oidc', user: { username: prefix + rawName, groups } };
    },
  };
}
