/**
 * Issues service account tokens (kube's serviceaccount JWT token generator): bound tokens (TokenRequest) with
 * audiences, expiry and an optional pod or secret binding, and legacy secret-based tokens without expiry.
 */
import { randomUUID } from 'node:crypto';
import type { Names } from '@svc-apiserver/api';
import { lazyImport } from '../../lazy-module.js';
import { legacyIssuer, serviceAccountClaimNames, serviceAccountUsername } from './claims.js';
import type { SigningKey } from './keys.js';

/** The JWT library, loaded by the first token issued. */
const jose = lazyImport(() => import('jose'));

/** An object a token names or is bound to. */
export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

/** What a bound token says. */
export interface BoundTokenRequest {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** Issue time in ms (default now; tests issue tokens in the past). */
  readonly now?: number;
}

/** Issues service account tokens with one key and issuer. */
export interface ServiceAccountTokenIssuer {
  readonly issuer: string;
  issueBound(request: BoundTokenRequest): Promise<string>;
  issueLegacy(namespace: string, serviceAccount: ObjectRef, secretName: string): Promise<string>;
}

/** The issuer of tokens signed by `key` with `issuer` as `iss`. */
export function serviceAccountTokenIssuer(names: Names, key: SigningKey, issuer: string): ServiceAccountTokenIssuer {
  const claims = serviceAccountClaimNames(names);
  const header = { alg: key.algorithm, kid: key.kid };
  return {
    issuer,
    async issueBound(r) {
      const iat = Math.floor((r.now ?? Date.now()) / 1000);
      const priv: Record<string, unknown> = {
        namespace: r.namespace,
        serviceaccount: { name: r.serviceAccount.name, uid: r.serviceAccount.uid },
      };
      if (r.pod) priv.pod = { name: r.pod.name, uid: r.pod.uid };
      if (r.secret) priv.secret = { name: r.secret.name, uid: r.secret.uid };
      const { SignJWT } = await jose();
      return new SignJWT({ [claims.privateClaim]: priv })
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setSubject(serviceAccountUsername(r.namespace, r.serviceAccount.name))
        .setAudience([...r.audiences])
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(iat + r.expirationSeconds)
        .setJti(randomUUID())
        .sign(key.privateKey);
    },
    async issueLegacy(namespace, serviceAccount, secretName) {
      const { SignJWT } = await jose();
      return new SignJWT({
        [claims.namespace]: namespace,
        [claims.secretName]: secretName,
        [claims.serviceAccountName]: serviceAccount.name,
        [claims.serviceAccountUid]: serviceAccount.uid,
      })
        .setProtectedHeader(header)
        .setIssuer(legacyIssuer)
        .setSubject(serviceAccountUsername(namespace, serviceAccount.name))
        .sign(key.privateKey);
    },
  };
}
