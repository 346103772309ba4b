/**
 * Builds request authentication from the flags (kube-apiserver's BuiltInAuthenticationOptions.ToAuthenticationConfig):
 * the request-header proxy, client certificates (the generated CA always, plus `--client-ca-file`), and bearer
 * tokens (static file, bootstrap tokens, service account tokens, OIDC, webhook) in kube-apiserver's order, then
 * anonymous. The token union also serves TokenReview with caller-chosen audiences.
 */
import { fail, ok, type Fail, type Names, type Result } from '@svc-apiserver/api';
import { readFile } from 'node:fs/promises';
import {
  audienceAgnostic, authenticatorUnion, tokenAuthenticatorUnion, type Authenticator, type TokenAuthenticator,
} from './authn/authenticator.js';
import { anonymousAllowed } from './authn/anonymous.js';
import { bearerTokenAuthenticator } from './authn/bearer-token.js';
import { bootstrapTokenAuthenticator } from './authn/bootstrap-token.js';
import { fileCaBundle, staticCaBundle, unionCaBundle, type CaBundle } from './authn/ca-bundle.js';
import type { ObjectGetter } from './authn/object-getter.js';
import type { AuthorizationFlags } from './authz/authorization-setup.js';
import { oidcAuthenticator, validateOidcOptions, type OidcAuthenticator } from './authn/oidc.js';
import { requestHeaderAuthenticator, type RequestHeaderAuthenticator } from './authn/request-header.js';
import { serviceAccountAuthenticator } from './authn/service-account.js';
import { loadStaticTokenFile } from './authn/static-token.js';
import { loadWebhookConnection } from '../outbound/webhook-connection.js';
import { parseWebhookVersion, webhookTokenAuthenticator } from './authn/webhook-token.js';
import { x509Authenticator } from './authn/x509.js';
import { ensureSigningKey, loadVerificationKeys, verificationKey, type SigningKey, type VerificationKey } from './serviceaccount/keys.js';
import { serviceAccountTokenIssuer, type ServiceAccountTokenIssuer } from './serviceaccount/token-issuer.js';

/**
 * The flags authentication reads (document 2 §Authentication, kube-apiserver's BuiltInAuthenticationOptions);
 * `''` means unset for file and string settings. The authorization modes matter too: AlwaysAllow turns anonymous
 * access off.
 */
export interface AuthenticationFlags extends Pick<AuthorizationFlags, 'authorizationModes'> {
  readonly clientCaFile: string;
  readonly tokenAuthFile: string;
  readonly enableBootstrapTokenAuth: boolean;
  readonly serviceAccountKeyFiles: readonly string[];
  /** The first issues bound tokens; all are accepted. */
  readonly serviceAccountIssuers: readonly string[];
  readonly serviceAccountSigningKeyFile: string;
  /** Empty means the service account issuers. */
  readonly apiAudiences: readonly string[];
  readonly serviceAccountLookup: boolean;
  readonly oidcIssuerUrl: string;
  readonly oidcClientId: string;
  readonly oidcUsernameClaim: string;
  readonly oidcUsernamePrefix: string;
  readonly oidcGroupsClaim: string;
  readonly oidcGroupsPrefix: string;
  /** `key=value` entries. */
  readonly oidcRequiredClaims: readonly string[];
  readonly oidcCaFile: string;
  readonly oidcSigningAlgs: readonly string[];
  readonly authenticationTokenWebhookConfigFile: string;
  readonly authenticationTokenWebhookCacheTtlMs: number;
  readonly authenticationTokenWebhookVersion: string;
  readonly requestheaderUsernameHeaders: readonly string[];
  readonly requestheaderGroupHeaders: readonly string[];
  readonly requestheaderExtraHeadersPrefix: readonly string[];
  readonly requestheaderClientCaFile: string;
  readonly requestheaderAllowedNames: readonly string[];
  readonly anonymousAuth: boolean;
}

/** What building authentication needs besides the flags. */
export interface AuthenticationDeps {
  readonly names: Names;
  /** Reads Secrets, ServiceAccounts and Pods (bootstrap tokens, service account token revocation). */
  readonly get: ObjectGetter;
  /** Where a generated service account signing key is kept. */
  readonly dataDir: string;
  /**
   * The signing key when its loading began already (the server starts it early, so that generating it on a first
   * start overlaps the rest of the start); default: {@link ensureSigningKey} of the flag and the data directory.
   */
  readonly signingKey?: Promise<Result<SigningKey, string>>;
  readonly log: (message: string) => void;
}

/** The request side, once the generated CA is known: what the HTTP layer's authentication filter runs. */
export interface RequestAuthentication {
  /** The union of the request authenticators, first claim wins. */
  readonly authenticator: Authenticator;
  /** Serve requests no authenticator claims as system:anonymous (`--anonymous-auth`). */
  readonly anonymous: boolean;
  /** Header names (lowercase) to remove once authentication has read them (the proxy's headers), given those present. */
  readonly stripHeaders?: (present: readonly string[]) => readonly string[];
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

/** Builds authentication; an error value names the bad flag (the server does not start then). */
export async function buildAuthentication(flags: AuthenticationFlags, deps: AuthenticationDeps): Promise<Result<Authentication, string>> {
  const { names, log } = deps;
  const closers: (() => void)[] = [];
  const refuse = (error: string): Fail<string> => {
    for (const c of closers) c();
    return fail(error);
  };
  const issuers = flags.serviceAccountIssuers.filter((i) => i !== '');
  if (issuers.length === 0) return refuse('--service-account-issuer must name an issuer');
  const apiAudiences = flags.apiAudiences.length > 0 ? [...flags.apiAudiences] : [...issuers];

  const tokens: TokenAuthenticator[] = [];
  if (flags.tokenAuthFile !== '') {
    const loaded = loadStaticTokenFile(flags.tokenAuthFile);
    if (!loaded.ok) return refuse(loaded.error);
    tokens.push(audienceAgnostic(apiAudiences, loaded.value));
  }
  if (flags.enableBootstrapTokenAuth) tokens.push(audienceAgnostic(apiAudiences, bootstrapTokenAuthenticator(names, deps.get)));

  const signing = await (deps.signingKey ?? ensureSigningKey(flags.serviceAccountSigningKeyFile, deps.dataDir));
  if (!signing.ok) return refuse(signing.error);
  const keys = await loadVerificationKeys(flags.serviceAccountKeyFiles);
  if (!keys.ok) return refuse(keys.error);
  const signingPublic = verificationKey(signing.value.publicKey);
  const allKeys = [...keys.value];
  if (signingPublic !== undefined && !allKeys.some((k) => k.kid === signingPublic.kid)) allKeys.push(signingPublic);
  tokens.push(serviceAccountAuthenticator({ names, keys: allKeys, issuers, apiAudiences, lookup: flags.serviceAccountLookup, get: deps.get }));

  if (flags.oidcIssuerUrl !== '') {
    const requiredClaims: Record<string, string> = {};
    for (const entry of flags.oidcRequiredClaims) {
      const eq = entry.indexOf('=');
      if (eq <= 0) return refuse(`--oidc-required-claim: ${JSON.stringify(entry)} is not key=value`);
      requiredClaims[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    let caPem: string | undefined;
    if (flags.oidcCaFile !== '') {
      try {
        caPem = await readFile(flags.oidcCaFile, 'utf8');
      } catch (e) {
        return refuse(`--oidc-ca-file: ${(e as Error).message}`);
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
    if (invalid !== undefined) return refuse(invalid);
    const oidc: OidcAuthenticator = oidcAuthenticator(oidcOptions);
    closers.push(() => oidc.close());
    tokens.push(audienceAgnostic(apiAudiences, oidc));
  }

  if (flags.authenticationTokenWebhookConfigFile !== '') {
    const version = parseWebhookVersion(flags.authenticationTokenWebhookVersion);
    if (version === undefined) return refuse(`--authentication-token-webhook-version must be v1beta1 or v1, not ${JSON.stringify(flags.authenticationTokenWebhookVersion)}`);
    const connection = loadWebhookConnection(flags.authenticationTokenWebhookConfigFile);
    if (!connection.ok) return refuse(`--authentication-token-webhook-config-file: ${connection.error}`);
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
      return refuse('--requestheader-client-ca-file and --requestheader-username-headers must be set together');
    }
    const bundle = fileCaBundle(flags.requestheaderClientCaFile, { log });
    if (!bundle.ok) return refuse(`--requestheader-client-ca-file: ${bundle.error}`);
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
    if (!bundle.ok) return refuse(`--client-ca-file: ${bundle.error}`);
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
  return ok({
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
          authenticator: authenticatorUnion(methods),
          anonymous,
          ...(requestHeader ? { stripHeaders: requestHeader.headerNamesToStrip } : {}),
          clientCas: unionCaBundle([userCas, ...(proxyCas ? [proxyCas] : [])]),
        };
      },
      close() {
        for (const c of closers) c();
      },
    });
}
