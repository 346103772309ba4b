/**
 * Builds request authentication from the flags (kube-apiserver's BuiltInAuthenticationOptions.ToAuthenticationConfig):
 * the request-header proxy, client certificates (the generated CA always, plus `--client-ca-file`), and bearer
 * tokens (static file, bootstrap tokens, service account tokens, OIDC, webhook) in kube-apiserver's order, then
 * anonymous. The token union also serves TokenReview with caller-chosen audiences.
 */
import type { Names } from '@svc-apiserver/api';
import { readFile } from 'node:fs/promises';
import type { ServerOptions } from '../config.js';
import type { Authenticator, TokenAuthenticator } from './authn/authenticator.js';
import { audienceAgnostic, authenticatorUnion, tokenAuthenticatorUnion } from './authn/authenticator.js';
import { anonymousAllowed } from './authn/anonymous.js';
import { bearerTokenAuthenticator } from './authn/bearer-token.js';
import { bootstrapTokenAuthenticator } from './authn/bootstrap-token.js';
import { fileCaBundle, staticCaBundle, unionCaBundle, type CaBundle } from './authn/ca-bundle.js';
import type { ObjectGetter } from './authn/object-getter.js';
import { oidcAuthenticator, validateOidcOptions, type OidcAuthenticator } from './authn/oidc.js';
import { requestHeaderAuthenticator, type RequestHeaderAuthenticator } from './authn/request-header.js';
import { serviceAccountAuthenticator } from './authn/service-account.js';
import { loadStaticTokenFile } from './authn/static-token.js';
import { loadWebhookConnection } from '../outbound/webhook-connection.js';
import { parseWebhookVersion, webhookTokenAuthenticator } from './authn/webhook-token.js';
import { x509Authenticator } from './authn/x509.js';
import { ensureSigningKey, loadVerificationKeys, verificationKey, type VerificationKey } from './serviceaccount/keys.js';
import { serviceAccountTokenIssuer, type ServiceAccountTokenIssuer } from './serviceaccount/token-issuer.js';
import { authentication as authenticationFilter } from '../http/filters/authentication.js';
import type { Filter } from '../http/context.js';

/** The flags authentication reads. */
export type AuthenticationFlags = Pick<ServerOptions,
  | 'clientCaFile' | 'tokenAuthFile' | 'enableBootstrapTokenAuth' | 'serviceAccountKeyFiles' | 'serviceAccountIssuers'
  | 'serviceAccountSigningKeyFile' | 'apiAudiences' | 'serviceAccountLookup' | 'oidcIssuerUrl' | 'oidcClientId'
  | 'oidcUsernameClaim' | 'oidcUsernamePrefix' | 'oidcGroupsClaim' | 'oidcGroupsPrefix' | 'oidcRequiredClaims'
  | 'oidcCaFile' | 'oidcSigningAlgs' | 'authenticationTokenWebhookConfigFile' | 'authenticationTokenWebhookCacheTtlMs'
  | 'authenticationTokenWebhookVersion' | 'requestheaderUsernameHeaders' | 'requestheaderGroupHeaders'
  | 'requestheaderExtraHeadersPrefix' | 'requestheaderClientCaFile' | 'requestheaderAllowedNames' | 'anonymousAuth'
  | 'authorizationModes'>;

/** What building authentication needs besides the flags. */
export interface AuthenticationDeps {
  readonly names: Names;
  /** Reads Secrets, ServiceAccounts and Pods (bootstrap tokens, service account token revocation). */
  readonly get: ObjectGetter;
  /** Where a generated service account signing key is kept. */
  readonly dataDir: string;
  readonly log: (message: string) => void;
}

/** The request side, once the generated CA is known. */
export interface RequestAuthentication {
  /** The authentication filter. */
  readonly filter: Filter;
  /** Every CA a client certificate may come from (the TLS server asks clients for certificates of these). */
  readonly clientCas: CaBundle;
}

/** Built authentication. */
export interface Authentication {
  /** The bearer token union with `system:authenticated` added (TokenReview). */
  readonly tokens: TokenAuthenticator;
  /** The API server's audiences. */
  readonly apiAudiences: readonly string[];
  /** Issues service account tokens with the signing key and the first issuer. */
  readonly tokenIssuer: ServiceAccountTokenIssuer;
  /** Every key that verifies service account tokens (the issuer discovery key set). */
  readonly serviceAccountKeys: readonly VerificationKey[];
  readonly anonymous: boolean;
  /** The request side; the generated CA (PEM) is always a client CA. */
  forServer(generatedCaPem: string): RequestAuthentication;
  close(): void;
}

type Built<T> = { ok: true; value: T } | { ok: false; error: string };

/** Builds authentication; an error value names the bad flag (the server does not start then). */
export async function buildAuthentication(flags: AuthenticationFlags, deps: AuthenticationDeps): Promise<Built<Authentication>> {
  const { names, log } = deps;
  const closers: (() => void)[] = [];
  const fail = (error: string): Built<Authentication> => {
    for (const c of closers) c();
    return { ok: false, error };
  };
  const issuers = flags.serviceAccountIssuers.filter((i) => i !== '');
  if (issuers.length === 0) return fail('--service-account-issuer must name an issuer');
  const apiAudiences = flags.apiAudiences.length > 0 ? [...flags.apiAudiences] : [...issuers];

  const tokens: TokenAuthenticator[] = [];
  if (flags.tokenAuthFile !== '') {
    const loaded = loadStaticTokenFile(flags.tokenAuthFile);
    if (!loaded.ok) return fail(loaded.error);
    tokens.push(audienceAgnostic(apiAudiences, loaded.value));
  }
  if (flags.enableBootstrapTokenAuth) tokens.push(audienceAgnostic(apiAudiences, bootstrapTokenAuthenticator(names, deps.get)));

  const signing = await ensureSigningKey(flags.serviceAccountSigningKeyFile, deps.dataDir);
  if (!signing.ok) return fail(signing.error);
  const keys = await loadVerificationKeys(flags.serviceAccountKeyFiles);
  if (!keys.ok) return fail(keys.error);
  const signingPublic = verificationKey(signing.value.publicKey);
  const allKeys = [...keys.value];
  if (signingPublic !== undefined && !allKeys.some((k) => k.kid === signingPublic.kid)) allKeys.push(signingPublic);
  tokens.push(serviceAccountAuthenticator({ names, keys: allKeys, issuers, apiAudiences, lookup: flags.serviceAccountLookup, get: deps.get }));

  if (flags.oidcIssuerUrl !== '') {
    const requiredClaims: Record<string, string> = {};
    for (const entry of flags.oidcRequiredClaims) {
      const eq = entry.indexOf('=');
      if (eq <= 0) return fail(`--oidc-required-claim: ${JSON.stringify(entry)} is not key=value`);
      requiredClaims[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    let caPem: string | undefined;
    if (flags.oidcCaFile !== '') {
      try {
        caPem = await readFile(flags.oidcCaFile, 'utf8');
      } catch (e) {
        return fail(`--oidc-ca-file: ${(e as Error).message}`);
      }
    }
    const oidcOptions = {
      issuerUrl: flags.oidcIssuerUrl,
      clientId: flags.oidcClientId,
      usernameClaim: flags.oidcUsernameClaim || 'sub',
      usernamePrefix: flags.oidcUsernamePrefix,
      groupsClaim: flags.oidcGroupsClaim,
      groupsPrefix: flags.oidcGroupsPrefix,
      requiredClaims,
      signingAlgs: flags.oidcSigningAlgs.length > 0 ? flags.oidcSigningAlgs : ['RS256'],
      ...(caPem !== undefined ? { caPem } : {}),
      log,
    };
    const invalid = validateOidcOptions(oidcOptions);
    if (invalid !== undefined) return fail(invalid);
    const oidc: OidcAuthenticator = oidcAuthenticator(oidcOptions);
    closers.push(() => oidc.close());
    tokens.push(audienceAgnostic(apiAudiences, oidc));
  }

  if (flags.authenticationTokenWebhookConfigFile !== '') {
    const version = parseWebhookVersion(flags.authenticationTokenWebhookVersion);
    if (version === undefined) return fail(`--authentication-token-webhook-version must be v1beta1 or v1, not ${JSON.stringify(flags.authenticationTokenWebhookVersion)}`);
    const connection = loadWebhookConnection(flags.authenticationTokenWebhookConfigFile);
    if (!connection.ok) return fail(`--authentication-token-webhook-config-file: ${connection.error}`);
    tokens.push(webhookTokenAuthenticator({
      names, connection: connection.value, version, cacheTtlMs: flags.authenticationTokenWebhookCacheTtlMs, apiAudiences, log,
    }));
  }
  const tokenUnion = tokenAuthenticatorUnion(tokens);

  let requestHeader: RequestHeaderAuthenticator | undefined;
  let proxyCas: CaBundle | undefined;
  const proxyFlagsSet = flags.requestheaderClientCaFile !== '' || flags.requestheaderUsernameHeaders.length > 0;
  if (proxyFlagsSet) {
    if (flags.requestheaderClientCaFile === '' || flags.requestheaderUsernameHeaders.length === 0) {
      return fail('--requestheader-client-ca-file and --requestheader-username-headers must be set together');
    }
    const bundle = fileCaBundle(flags.requestheaderClientCaFile, { log });
    if (!bundle.ok) return fail(`--requestheader-client-ca-file: ${bundle.error}`);
    proxyCas = bundle.value;
    closers.push(() => bundle.value.close());
    requestHeader = requestHeaderAuthenticator({
      bundle: bundle.value,
      allowedNames: flags.requestheaderAllowedNames,
      usernameHeaders: flags.requestheaderUsernameHeaders,
      groupHeaders: flags.requestheaderGroupHeaders,
      extraHeaderPrefixes: flags.requestheaderExtraHeadersPrefix,
    });
  }
  let clientCaFile: CaBundle | undefined;
  if (flags.clientCaFile !== '') {
    const bundle = fileCaBundle(flags.clientCaFile, { log });
    if (!bundle.ok) return fail(`--client-ca-file: ${bundle.error}`);
    clientCaFile = bundle.value;
    closers.push(() => bundle.value.close());
  }
  // kube-apiserver's BuiltInAuthenticationOptions.ApplyAuthorization: AlwaysAllow anywhere in the modes would let
  // anyone do anything, so anonymous access is turned off, with its warning.
  const anonymous = anonymousAllowed(flags.anonymousAuth, flags.authorizationModes);
  if (flags.anonymousAuth && !anonymous) {
    log('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
  }
  const tokenIssuer = serviceAccountTokenIssuer(names, signing.value, issuers[0]!);
  return {
    ok: true,
    value: {
      tokens: tokenUnion,
      apiAudiences,
      tokenIssuer,
      serviceAccountKeys: allKeys,
      anonymous,
      forServer(generatedCaPem) {
        const userCas = unionCaBundle([staticCaBundle(generatedCaPem), ...(clientCaFile ? [clientCaFile] : [])]);
        const methods: Authenticator[] = [
          ...(requestHeader ? [requestHeader] : []),
          x509Authenticator(userCas),
          bearerTokenAuthenticator(tokenUnion),
        ];
        return {
          filter: authenticationFilter(authenticatorUnion(methods), {
            anonymous,
            ...(requestHeader ? { stripHeaders: requestHeader.headerNamesToStrip } : {}),
            log,
          }),
          clientCas: unionCaBundle([userCas, ...(proxyCas ? [proxyCas] : [])]),
        };
      },
      close() {
        for (const c of closers) c();
      },
    },
  };
}
