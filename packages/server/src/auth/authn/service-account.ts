/**
 * Service account token authentication (kube's serviceaccount JWT authenticator): JWTs signed by one of the
 * `--service-account-key-file` keys, either legacy secret-based tokens (issuer `kubernetes/serviceaccount`) or
 * bound tokens (issuer among `--service-account-issuer`, audiences, expiry, pod or secret binding). Lookups
 * revoke tokens whose service account, Secret or Pod was deleted or recreated: always for bound tokens, and for
 * legacy tokens with `--service-account-lookup` (the default).
 */
import type { JWTPayload } from 'jose';
import { fail, ok, type KubeObject, type Names, type Result } from '@svc-apiserver/api';
import { lazyImport } from '../../lazy-module.js';
import { intersectAudiences, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';
import { isDeleting, secretValue, type LookupResource, type ObjectGetter } from './object-getter.js';
import type { VerificationKey } from '../serviceaccount/keys.js';
import {
  legacyIssuer, serviceAccountClaimNames, serviceAccountGroups, serviceAccountUsername,
} from '../serviceaccount/claims.js';

/** Options of {@link serviceAccountAuthenticator}. */
export interface ServiceAccountAuthenticatorOptions {
  readonly names: Names;
  readonly keys: readonly VerificationKey[];
  /** Accepted issuers of bound tokens (`--service-account-issuer`). */
  readonly issuers: readonly string[];
  /** The API server's audiences (`--api-audiences`, default the issuers). */
  readonly apiAudiences: readonly string[];
  /** `--service-account-lookup`: check legacy tokens against the stored Secret and service account. */
  readonly lookup: boolean;
  readonly get: ObjectGetter;
}

/** The JWT library, loaded by the first bearer token looked at. */
const jose = lazyImport(() => import('jose'));

/** How much clock skew expiry and not-before checks allow (go-jose's default leeway). */
const leewaySeconds = 60;

const rejected = (message: string): AuthenticationResult => ({ kind: 'error', message });

interface Ref {
  name?: unknown;
  uid?: unknown;
}

/** The service account token authenticator. */
export function serviceAccountAuthenticator(options: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const claims = serviceAccountClaimNames(options.names);
  const algorithms = [...new Set(options.keys.flatMap((k) => k.algorithms))];

  /** The object exists, is not being deleted and has the uid the token names. */
  const stillThere = async (resource: LookupResource, namespace: string, name: string, uid?: string): Promise<KubeObject | undefined> => {
    const object = await options.get(resource, namespace, name);
    if (object === undefined || isDeleting(object)) return undefined;
    if (uid !== undefined && object.metadata?.uid !== uid) return undefined;
    return object;
  };

  const verify = async (token: string, issuer: string, legacy: boolean): Promise<Result<JWTPayload, AuthenticationResult>> => {
    const { decodeProtectedHeader, jwtVerify } = await jose();
    let alg: string | undefined;
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      alg = header.alg;
      kid = header.kid;
    } catch {
      return fail(rejected('malformed token'));
    }
    if (alg === undefined || !algorithms.includes(alg)) return fail(rejected('token signed with an unaccepted algorithm'));
    const candidates = options.keys.filter((k) => k.algorithms.includes(alg!));
    candidates.sort((a, b) => Number(b.kid === kid) - Number(a.kid === kid));
    let last: unknown;
    for (const key of candidates) {
      try {
        const { payload } = await jwtVerify(token, key.key, {
          algorithms: [alg],
          issuer,
          clockTolerance: leewaySeconds,
          ...(legacy ? {} : { requiredClaims: ['exp'] }),
        });
        return ok(payload);
      } catch (e) {
        last = e;
        const code = (e as { code?: string }).code;
        // A claim failure is the same for every key: the signature verified.
        if (code === 'ERR_JWT_EXPIRED') return fail(rejected('token has expired'));
        if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return fail(rejected('token claims are invalid'));
      }
    }
    void last;
    return fail(rejected('token signature could not be verified'));
  };

  const legacyToken = async (token: string, audiences: readonly string[] | undefined): Promise<AuthenticationResult> => {
    const verified = await verify(token, legacyIssuer, true);
    if (!verified.ok) return verified.error;
    const p = verified.value as Record<string, unknown>;
    const namespace = p[claims.namespace];
    const secretName = p[claims.secretName];
    const saName = p[claims.serviceAccountName];
    const saUid = p[claims.serviceAccountUid];
    if (typeof namespace !== 'string' || namespace === '' || typeof secretName !== 'string' || secretName === ''
      || typeof saName !== 'string' || saName === '' || typeof saUid !== 'string' || saUid === '') {
      return rejected('token is missing service account claims');
    }
    if (p.sub !== serviceAccountUsername(namespace, saName)) return rejected('token subject does not match its claims');
    // Legacy tokens carry no audience: they are valid for the API server's own audiences only.
    const tokenAuds = audienceList(p.aud);
    const wanted = audiences ?? options.apiAudiences;
    const valid = intersectAudiences(tokenAuds.length > 0 ? tokenAuds : options.apiAudiences, wanted);
    if (valid.length === 0 && options.apiAudiences.length > 0) return rejected('token audiences are invalid for the target audiences');
    if (options.lookup) {
      const secret = await stillThere('secrets', namespace, secretName);
      if (secret === undefined) return rejected('token has been invalidated');
      if (secretValue(secret, 'token') !== token) return rejected('token does not match the stored copy');
      if ((await stillThere('serviceaccounts', namespace, saName, saUid)) === undefined) return rejected('token has been invalidated');
    }
    return {
      kind: 'user',
      method: 'service-account',
      audiences: valid,
      user: { username: serviceAccountUsername(namespace, saName), uid: saUid, groups: serviceAccountGroups(namespace) },
    };
  };

  const boundToken = async (token: string, issuer: string, audiences: readonly string[] | undefined): Promise<AuthenticationResult> => {
    const verified = await verify(token, issuer, false);
    if (!verified.ok) return verified.error;
    const p = verified.value as Record<string, unknown>;
    const wanted = audiences ?? options.apiAudiences;
    const valid = intersectAudiences(audienceList(p.aud), wanted);
    if (valid.length === 0) return rejected('token audiences are invalid for the target audiences');
    const priv = p[claims.privateClaim] as { namespace?: unknown; serviceaccount?: Ref; pod?: Ref; secret?: Ref } | undefined;
    const namespace = priv?.namespace;
    const sa = priv?.serviceaccount;
    if (typeof namespace !== 'string' || namespace === '' || typeof sa?.name !== 'string' || typeof sa.uid !== 'string') {
      return rejected('token is missing service account claims');
    }
    if (p.sub !== serviceAccountUsername(namespace, sa.name)) return rejected('token subject does not match its claims');
    if ((await stillThere('serviceaccounts', namespace, sa.name, sa.uid)) === undefined) return rejected('token has been invalidated');
    const extra: Record<string, string[]> = {};
    for (const [resource, ref] of [['pods', priv?.pod], ['secrets', priv?.secret]] as const) {
      if (ref === undefined) continue;
      if (typeof ref.name !== 'string' || typeof ref.uid !== 'string') return rejected('token has a malformed binding');
      if ((await stillThere(resource, namespace, ref.name, ref.uid)) === undefined) return rejected('token has been invalidated');
      if (resource === 'pods') {
        extra[claims.podNameExtra] = [ref.name];
        extra[claims.podUidExtra] = [ref.uid];
      }
    }
    return {
      kind: 'user',
      method: 'service-account',
      audiences: valid,
      user: {
        username: serviceAccountUsername(namespace, sa.name),
        uid: sa.uid,
        groups: serviceAccountGroups(namespace),
        ...(Object.keys(extra).length > 0 ? { extra } : {}),
      },
    };
  };

  return {
    name: 'service-account',
    async authenticateToken(token, audiences) {
      if (options.keys.length === 0) return { kind: 'none' };
      const { decodeJwt } = await jose();
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        // Not a JWT: another method's token.
        return { kind: 'none' };
      }
      if (iss === legacyIssuer) return legacyToken(token, audiences);
      if (typeof iss === 'string' && options.issuers.includes(iss)) return boundToken(token, iss, audiences);
      return { kind: 'none' };
    },
  };
}

/** `aud` as a list (a JWT may give one string). */
export function audienceList(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}
