/**
 * Wiring of the identities the server hands out, from the flags: the root CA and the built-in signers' CAs
 * (kube-controller-manager's `--cluster-signing-*`), the key signing legacy token Secrets
 * (`--service-account-private-key-file`), service account issuer discovery (`--service-account-jwks-uri`), and what
 * the admission plugins and controllers of service accounts and certificates are handed.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { AdmissionPlugin } from './admission/plugin.js';
import { initializePlugins, type ServiceAccountReader } from './admission/plugins/plugin-initializers.js';
import type { Authentication } from './auth/authentication-setup.js';
import type { Authorizer } from './request/authorizer.js';
import { issuerDiscovery, type IssuerDiscovery } from './auth/serviceaccount/issuer-discovery.js';
import { ensureSigningKey } from './auth/serviceaccount/keys.js';
import { serviceAccountTokenIssuer } from './auth/serviceaccount/token-issuer.js';
import type { ServerOptions } from './config.js';
import type { ControllerConfig } from './controllers/kit/controller-config.js';
import { loadClusterSigningCas } from './pki/cluster-signing-cas.js';
import type { Pki } from './pki/ensure-pki.js';
import type { Registry } from './registry/registry.js';

/** The flags this setup reads. */
export type IdentityFlags = Pick<ServerOptions,
  | 'serviceAccountPrivateKeyFile' | 'serviceAccountJwksUri' | 'clusterSigningCertFile'
  | 'clusterSigningKeyFile' | 'clusterSigningKubeApiserverClientCertFile' | 'clusterSigningKubeApiserverClientKeyFile'
  | 'clusterSigningKubeletClientCertFile' | 'clusterSigningKubeletClientKeyFile' | 'clusterSigningKubeletServingCertFile'
  | 'clusterSigningKubeletServingKeyFile' | 'clusterSigningLegacyUnknownCertFile' | 'clusterSigningLegacyUnknownKeyFile'
  | 'clusterSigningDurationMs'>;

/** What the setup needs besides the flags. */
export interface IdentityDeps {
  readonly names: Names;
  readonly dataDir: string;
  readonly registry: Registry;
  readonly authentication: Authentication;
  readonly authorizer: Authorizer;
  /** The server's PKI (its CA signs for the built-in signers without files of their own). */
  readonly pki: Pki;
  readonly log: (message: string) => void;
}

/** The wired identities. */
export interface Identity {
  /** The settings of the service account and certificate controllers. */
  readonly controllerConfig: ControllerConfig;
  /** The issuer discovery documents for this server's `host:port`; undefined when discovery is not served. */
  readonly issuerDiscovery?: (serverAddress: string) => IssuerDiscovery;
  /** Hands the admission plugins the authorizer and the service account reader. */
  initializeAdmission(plugins: readonly AdmissionPlugin[]): void;
}

/** Reads service accounts from the registry: the watch cache (`cached`) or storage. */
function registryServiceAccounts(registry: Registry): ServiceAccountReader {
  return async (namespace, name, { cached }) => {
    const def = registry.lookup('', 'v1', 'serviceaccounts');
    if (def === undefined) return ok(undefined);
    const got = await registry.store.get(def, namespace, name, cached ? '0' : undefined);
    if (got.ok) return ok(got.value);
    if (got.error.code === 404) return ok(undefined);
    return fail(got.error.message ?? 'reading the service account failed');
  };
}

/** Builds the identities; an error names the flag at fault (the server does not start then). */
export async function identitySetup(o: IdentityFlags, deps: IdentityDeps): Promise<Result<Identity, string>> {
  const { names, pki } = deps;
  const cas = await loadClusterSigningCas({
    all: { certFile: o.clusterSigningCertFile, keyFile: o.clusterSigningKeyFile },
    apiClient: { certFile: o.clusterSigningKubeApiserverClientCertFile, keyFile: o.clusterSigningKubeApiserverClientKeyFile },
    apiClientNode: { certFile: o.clusterSigningKubeletClientCertFile, keyFile: o.clusterSigningKubeletClientKeyFile },
    nodeServing: { certFile: o.clusterSigningKubeletServingCertFile, keyFile: o.clusterSigningKubeletServingKeyFile },
    legacyUnknown: { certFile: o.clusterSigningLegacyUnknownCertFile, keyFile: o.clusterSigningLegacyUnknownKeyFile },
  }, names, pki.ca);
  if (!cas.ok) return cas;
  let legacyTokenIssuer = deps.authentication.tokenIssuer;
  if (o.serviceAccountPrivateKeyFile !== '') {
    const key = await ensureSigningKey(o.serviceAccountPrivateKeyFile, deps.dataDir);
    if (!key.ok) return fail(`--service-account-private-key-file: ${key.error}`);
    legacyTokenIssuer = serviceAccountTokenIssuer(names, key.value, deps.authentication.tokenIssuer.issuer);
  }
  const discovery = await issuerDiscovery({
    issuer: deps.authentication.tokenIssuer.issuer, jwksUri: o.serviceAccountJwksUri, keys: deps.authentication.serviceAccountKeys,
  });
  if (!discovery.ok) {
    if (o.serviceAccountJwksUri !== '') return fail(`--service-account-jwks-uri: ${discovery.error}`);
    deps.log(`service account issuer discovery is not served: ${discovery.error}`);
  }
  return ok({
    controllerConfig: {
      rootCaPem: pki.ca.certPem,
      legacyTokenIssuer,
      csrSigning: { cas: cas.value, durationMs: o.clusterSigningDurationMs },
      authorizer: deps.authorizer,
    },
    ...(discovery.ok ? { issuerDiscovery: discovery.value } : {}),
    initializeAdmission(plugins) {
      initializePlugins(plugins, { authorizer: deps.authorizer, serviceAccounts: registryServiceAccounts(deps.registry) });
    },
  });
}
