/**
 * Command-line flags of svc-apiserver, with kube-apiserver's names and forms (`--flag=value`, `--flag value`,
 * repeatable list flags that also take comma lists, Go durations like `5s` or `1m30s`).
 */
import { parseFlavour, parseGoDuration, type Flavour } from '@svc-apiserver/api';
import type { AuthenticationFlags } from './auth/authentication-setup.js';
import type { AuthorizationFlags } from './auth/authz/authorization-setup.js';
import { defaultServiceAccountIssuer } from './auth/serviceaccount/claims.js';
import { defaultFeatureGates, resolveFeatureGates, setFeatureGates, settableFeatureGates, type FeatureGateSettings, type FeatureGates } from './feature-gates.js';
import { defaultMaxMutatingRequestsInFlight, defaultMaxRequestsInFlight } from './http/filters/max-in-flight.js';
import { defaultAuditFlags, type AuditFlags } from './audit/audit-flags.js';
import { validateShowHiddenMetricsVersion } from './metrics/metrics-registry.js';
import { defaultLoggingFlags, parseLoggingFormat, type LoggingFlags } from './logging/logging-flags.js';

/** Where state is kept. */
export type StorageKind = 'sqlite' | 'memory';

/** Whether the options select etcd (`--storage-backend=etcd3` or any `--etcd-servers`) over `storage`. */
export function usesEtcd(o: Pick<ServerOptions, 'storageBackend' | 'etcdServers'>): boolean {
  return o.storageBackend === 'etcd3' || o.etcdServers.length > 0;
}

/**
 * Everything the flags set; `startServer` takes the same options. Authentication, authorization and audit declare
 * their own flags (as kube-apiserver's BuiltInAuthenticationOptions, BuiltInAuthorizationOptions and AuditOptions
 * are their own).
 */
export interface ServerOptions extends AuthenticationFlags, AuthorizationFlags, AuditFlags, LoggingFlags {
  /** Directory for the database, certificates and the admin kubeconfig. */
  readonly dataDir: string;
  readonly bindAddress: string;
  /** `--advertise-address`: this replica's address in the `kubernetes` Service's endpoints ('' = from the bind address). */
  readonly advertiseAddress: string;
  /** 0 picks an ephemeral port. */
  readonly securePort: number;
  /** Extra SANs of the serving certificate. */
  readonly tlsSans: readonly string[];
  readonly flavour: Flavour;
  readonly livezGracePeriodMs: number;
  readonly shutdownDelayMs: number;
  readonly enableAdmissionPlugins: readonly string[];
  readonly disableAdmissionPlugins: readonly string[];
  /** `--admission-control-config-file`: the AdmissionConfiguration file ('' for none). */
  readonly admissionControlConfigFile: string;
  /** Seconds of the not-ready toleration DefaultTolerationSeconds adds to pods. */
  readonly defaultNotReadyTolerationSeconds: number;
  /** Seconds of the unreachable toleration DefaultTolerationSeconds adds to pods. */
  readonly defaultUnreachableTolerationSeconds: number;
  readonly maxRequestBodyBytes: number;
  /** `--max-requests-inflight`: read-only requests served at once; more get 429 (0: no limit). */
  readonly maxRequestsInFlight: number;
  /** `--max-mutating-requests-inflight`: mutating requests served at once; more get 429 (0: no limit). */
  readonly maxMutatingRequestsInFlight: number;
  /** `--request-timeout`: how long a request that is not long-running may take before it is answered 504. */
  readonly requestTimeoutMs: number;
  readonly storage: StorageKind;
  /** `--runtime-config` entries (`<group>/<version>[=true|false]`, `<group>/<version>/<resource>`, `api/all`). */
  readonly runtimeConfig: readonly string[];
  /** Client certificate and key the aggregator presents to extension API servers (generated when empty). */
  readonly proxyClientCertFile: string;
  readonly proxyClientKeyFile: string;
  /** `--feature-gates`: every gate of kube-apiserver 1.27, at its default unless a flag set it. */
  readonly featureGates: FeatureGates;
  /** `--min-request-timeout` in seconds: a watch without `timeoutSeconds` lasts this × a random factor in [1, 2). */
  readonly minRequestTimeoutSeconds: number;
  /** `--service-cluster-ip-range`: the IPv4 CIDR Service cluster IPs are allocated from. */
  readonly serviceClusterIpRange: string;
  /** `--service-node-port-range`: the ports NodePort and LoadBalancer Services get node ports from. */
  readonly serviceNodePortRange: string;
  /** `--storage-backend`: '' (use `storage`) or `etcd3` (implied by `--etcd-servers`). */
  readonly storageBackend: '' | 'etcd3';
  /** `--etcd-servers`: client URLs of the etcd members; non-empty selects etcd instead of the embedded store. */
  readonly etcdServers: readonly string[];
  /** `--etcd-prefix`: the etcd key prefix every object key lives under (default `/registry`). */
  readonly etcdPrefix: string;
  readonly etcdCafile: string;
  readonly etcdCertfile: string;
  readonly etcdKeyfile: string;
  /**
   * `--etcd-compaction-interval`: how often a replica tries to compact etcd, and how long the embedded store keeps
   * history (0 disables compaction).
   */
  readonly etcdCompactionIntervalMs: number;
  /** `--leader-elect`: controllers run only on the replica that holds the controller Lease. */
  readonly leaderElect: boolean;
  readonly leaderElectLeaseDurationMs: number;
  readonly leaderElectRenewDeadlineMs: number;
  readonly leaderElectRetryPeriodMs: number;
  /**
   * `--controllers` (kube-controller-manager's): `*` = every controller on by default, `name` enables one, `-name`
   * disables one; unknown names are refused when the server starts.
   */
  readonly controllers: readonly string[];
  // Identities: service account tokens, issuer discovery and the built-in signers (kube-controller-manager's flags).
  /** `--service-account-private-key-file`: signs legacy token Secrets; '' means the service account signing key. */
  readonly serviceAccountPrivateKeyFile: string;
  /** `--service-account-jwks-uri`: the discovery document's `jwks_uri`; '' means this server's `/openid/v1/jwks`. */
  readonly serviceAccountJwksUri: string;
  /** `--cluster-signing-cert-file` / `--cluster-signing-key-file`: the CA of every built-in signer ('' = generated CA). */
  readonly clusterSigningCertFile: string;
  readonly clusterSigningKeyFile: string;
  /** Per-signer CAs, each pair set together, instead of the one above. */
  readonly clusterSigningKubeApiserverClientCertFile: string;
  readonly clusterSigningKubeApiserverClientKeyFile: string;
  readonly clusterSigningKubeletClientCertFile: string;
  readonly clusterSigningKubeletClientKeyFile: string;
  readonly clusterSigningKubeletServingCertFile: string;
  readonly clusterSigningKubeletServingKeyFile: string;
  readonly clusterSigningLegacyUnknownCertFile: string;
  readonly clusterSigningLegacyUnknownKeyFile: string;
  /** `--cluster-signing-duration`: the longest lifetime of an issued certificate. */
  readonly clusterSigningDurationMs: number;
  /** `--show-hidden-metrics-for-version`: '' or the previous minor release, whose hidden metrics are served again. */
  readonly showHiddenMetricsForVersion: string;
  /** `--disabled-metrics`: metrics never served. */
  readonly disabledMetrics: readonly string[];
}

/** The defaults (kube-apiserver's where they exist). */
export const defaultServerOptions: ServerOptions = {
  ...defaultAuditFlags,
  ...defaultLoggingFlags,
  dataDir: './.svc-data',
  bindAddress: '127.0.0.1',
  advertiseAddress: '',
  securePort: 6443,
  tlsSans: [],
  flavour: 'svc',
  livezGracePeriodMs: 0,
  shutdownDelayMs: 0,
  enableAdmissionPlugins: [],
  disableAdmissionPlugins: [],
  admissionControlConfigFile: '',
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
  maxRequestBodyBytes: 3 * 1024 * 1024,
  maxRequestsInFlight: defaultMaxRequestsInFlight,
  maxMutatingRequestsInFlight: defaultMaxMutatingRequestsInFlight,
  requestTimeoutMs: 60_000,
  storage: 'sqlite',
  runtimeConfig: [],
  clientCaFile: '',
  tokenAuthFile: '',
  enableBootstrapTokenAuth: false,
  serviceAccountKeyFiles: [],
  serviceAccountIssuers: [defaultServiceAccountIssuer],
  serviceAccountSigningKeyFile: '',
  apiAudiences: [],
  serviceAccountLookup: true,
  oidcIssuerUrl: '',
  oidcClientId: '',
  oidcUsernameClaim: 'sub',
  oidcUsernamePrefix: '',
  oidcGroupsClaim: '',
  oidcGroupsPrefix: '',
  oidcRequiredClaims: [],
  oidcCaFile: '',
  oidcSigningAlgs: ['RS256'],
  authenticationTokenWebhookConfigFile: '',
  authenticationTokenWebhookCacheTtlMs: 2 * 60 * 1000,
  authenticationTokenWebhookVersion: 'v1beta1',
  requestheaderUsernameHeaders: [],
  requestheaderGroupHeaders: [],
  requestheaderExtraHeadersPrefix: [],
  requestheaderClientCaFile: '',
  requestheaderAllowedNames: [],
  proxyClientCertFile: '',
  proxyClientKeyFile: '',
  anonymousAuth: true,
  // kube-apiserver defaults to AlwaysAllow; this server starts with RBAC.
  authorizationModes: ['RBAC'],
  authorizationWebhookConfigFile: '',
  authorizationWebhookVersion: 'v1beta1',
  authorizationWebhookCacheAuthorizedTtlMs: 5 * 60 * 1000,
  authorizationWebhookCacheUnauthorizedTtlMs: 30 * 1000,
  featureGates: defaultFeatureGates,
  minRequestTimeoutSeconds: 1800,
  serviceClusterIpRange: '10.0.0.0/24',
  serviceNodePortRange: '30000-32767',
  storageBackend: '',
  etcdServers: [],
  etcdPrefix: '/registry',
  etcdCafile: '',
  etcdCertfile: '',
  etcdKeyfile: '',
  etcdCompactionIntervalMs: 5 * 60 * 1000,
  leaderElect: true,
  leaderElectLeaseDurationMs: 15_000,
  leaderElectRenewDeadlineMs: 10_000,
  leaderElectRetryPeriodMs: 2_000,
  controllers: ['*'],
  serviceAccountPrivateKeyFile: '',
  serviceAccountJwksUri: '',
  clusterSigningCertFile: '',
  clusterSigningKeyFile: '',
  clusterSigningKubeApiserverClientCertFile: '',
  clusterSigningKubeApiserverClientKeyFile: '',
  clusterSigningKubeletClientCertFile: '',
  clusterSigningKubeletClientKeyFile: '',
  clusterSigningKubeletServingCertFile: '',
  clusterSigningKubeletServingKeyFile: '',
  clusterSigningLegacyUnknownCertFile: '',
  clusterSigningLegacyUnknownKeyFile: '',
  clusterSigningDurationMs: 365 * 24 * 3_600_000,
  showHiddenMetricsForVersion: '',
  disabledMetrics: [],
};

/** Parses a Go duration (`300ms`, `5s`, `1m30s`, `1.5h`, `0`) into milliseconds; negative ones are refused. */
export function parseDuration(text: string): number | undefined {
  const parsed = parseGoDuration(text.trim());
  return parsed.ok && parsed.value >= 0 ? parsed.value : undefined;
}

type FlagKind = 'string' | 'list' | 'int' | 'number' | 'duration' | 'flavour' | 'storage' | 'storageBackend' | 'bool' | 'boolean' | 'featureGates' | 'loggingFormat';
interface FlagSpec {
  readonly kind: FlagKind;
  readonly key: keyof ServerOptions | 'help';
  readonly help: string;
}

const flags: Record<string, FlagSpec> = {
  'data-dir': { kind: 'string', key: 'dataDir', help: 'Directory of the database, certificates and admin.kubeconfig.' },
  'bind-address': { kind: 'string', key: 'bindAddress', help: 'The IP address on which to listen for the --secure-port port.' },
  'advertise-address': { kind: 'string', key: 'advertiseAddress', help: 'The IPv4 address on which to advertise the apiserver to members of the cluster (the kubernetes Service\'s endpoints). If blank, the --bind-address is used, or for 0.0.0.0 the host\'s first non-loopback address.' },
  'secure-port': { kind: 'int', key: 'securePort', help: 'The port on which to serve HTTPS (0 picks a free port).' },
  'tls-san': { kind: 'list', key: 'tlsSans', help: 'Extra subject alternative name (DNS name or IP) of the serving certificate; repeatable.' },
  flavour: { kind: 'flavour', key: 'flavour', help: 'Names served: svc (default) or k8s (Kubernetes names, for stock clients).' },
  'livez-grace-period': { kind: 'duration', key: 'livezGracePeriodMs', help: 'Time after start during which /livez ignores failing startup checks.' },
  'shutdown-delay-duration': { kind: 'duration', key: 'shutdownDelayMs', help: 'Time between /readyz failing and the listener closing on shutdown.' },
  'enable-admission-plugins': { kind: 'list', key: 'enableAdmissionPlugins', help: 'Admission plugins to enable in addition to the default ones.' },
  'disable-admission-plugins': { kind: 'list', key: 'disableAdmissionPlugins', help: 'Admission plugins to disable.' },
  'admission-control-config-file': { kind: 'string', key: 'admissionControlConfigFile', help: 'File with admission control configuration (kind AdmissionConfiguration): each plugin\'s configuration inline or by path.' },
  'default-not-ready-toleration-seconds': { kind: 'int', key: 'defaultNotReadyTolerationSeconds', help: 'Seconds of the toleration for notReady:NoExecute that DefaultTolerationSeconds adds to every pod without one.' },
  'default-unreachable-toleration-seconds': { kind: 'int', key: 'defaultUnreachableTolerationSeconds', help: 'Seconds of the toleration for unreachable:NoExecute that DefaultTolerationSeconds adds to every pod without one.' },
  'max-request-body-bytes': { kind: 'int', key: 'maxRequestBodyBytes', help: 'Largest accepted request body in bytes.' },
  'max-requests-inflight': { kind: 'int', key: 'maxRequestsInFlight', help: 'The maximum number of non-mutating requests (get, list) in flight; more get 429 TooManyRequests. Watches and other long-running requests are not counted. 0 disables the limit.' },
  'max-mutating-requests-inflight': { kind: 'int', key: 'maxMutatingRequestsInFlight', help: 'The maximum number of mutating requests in flight; more get 429 TooManyRequests. 0 disables the limit.' },
  'request-timeout': { kind: 'duration', key: 'requestTimeoutMs', help: 'How long a request that is not long-running (watch, proxy, exec, attach, log) may take before it is answered 504 Timeout; the timeout query parameter asks for less. 0 disables the deadline.' },
  storage: { kind: 'storage', key: 'storage', help: 'Storage backend: sqlite (default) or memory (tests).' },
  'runtime-config': { kind: 'list', key: 'runtimeConfig', help: 'API versions to enable or disable: <group>/<version>[=true|false], <group>/<version>/<resource>, api/all, api/ga, api/beta, api/alpha; alpha versions are off by default.' },
  'client-ca-file': { kind: 'string', key: 'clientCaFile', help: 'PEM CA bundle for client certificates (CN = user, O = groups); reloaded when it changes. The generated CA is always trusted too.' },
  'token-auth-file': { kind: 'string', key: 'tokenAuthFile', help: 'CSV file of static bearer tokens: token,user,uid,"group1,group2"; read at start.' },
  'enable-bootstrap-token-auth': { kind: 'boolean', key: 'enableBootstrapTokenAuth', help: 'Accept bootstrap tokens from bootstrap-token-<id> Secrets in the system namespace.' },
  'service-account-key-file': { kind: 'list', key: 'serviceAccountKeyFiles', help: 'PEM file of RSA/ECDSA public or private keys verifying service account tokens; repeatable. The signing key is always accepted.' },
  'service-account-issuer': { kind: 'list', key: 'serviceAccountIssuers', help: 'Issuer (iss) of service account tokens; repeatable: the first is used to issue, all are accepted.' },
  'service-account-signing-key-file': { kind: 'string', key: 'serviceAccountSigningKeyFile', help: 'PEM private key signing bound service account tokens (default: sa.key generated in the data dir).' },
  'api-audiences': { kind: 'list', key: 'apiAudiences', help: 'Audiences of the API server: tokens must be valid for one of them (default: the service account issuers).' },
  'service-account-lookup': { kind: 'boolean', key: 'serviceAccountLookup', help: 'Reject legacy service account tokens whose Secret or service account was deleted.' },
  'oidc-issuer-url': { kind: 'string', key: 'oidcIssuerUrl', help: 'https URL of the trusted OpenID Connect issuer; enables OIDC ID token authentication.' },
  'oidc-client-id': { kind: 'string', key: 'oidcClientId', help: 'Client ID every OIDC token must be issued for (aud or azp).' },
  'oidc-username-claim': { kind: 'string', key: 'oidcUsernameClaim', help: 'OIDC claim giving the username; claims other than email get "<issuer>#" as prefix unless --oidc-username-prefix is set.' },
  'oidc-username-prefix': { kind: 'string', key: 'oidcUsernamePrefix', help: 'Prefix of OIDC usernames; "-" disables prefixing.' },
  'oidc-groups-claim': { kind: 'string', key: 'oidcGroupsClaim', help: 'OIDC claim giving the groups (a string or an array of strings).' },
  'oidc-groups-prefix': { kind: 'string', key: 'oidcGroupsPrefix', help: 'Prefix of OIDC group names.' },
  'oidc-required-claim': { kind: 'list', key: 'oidcRequiredClaims', help: 'key=value claim every OIDC token must carry; repeatable.' },
  'oidc-ca-file': { kind: 'string', key: 'oidcCaFile', help: 'PEM CA bundle of the OIDC issuer\'s TLS certificate (default: the host\'s roots).' },
  'oidc-signing-algs': { kind: 'list', key: 'oidcSigningAlgs', help: 'Accepted OIDC signing algorithms.' },
  'authentication-token-webhook-config-file': { kind: 'string', key: 'authenticationTokenWebhookConfigFile', help: 'Kubeconfig-format file of the token webhook (cluster = the service, user = our credentials, current context required).' },
  'authentication-token-webhook-cache-ttl': { kind: 'duration', key: 'authenticationTokenWebhookCacheTtlMs', help: 'How long token webhook answers are cached.' },
  'authentication-token-webhook-version': { kind: 'string', key: 'authenticationTokenWebhookVersion', help: 'TokenReview version sent to the token webhook: v1beta1 or v1.' },
  'requestheader-username-headers': { kind: 'list', key: 'requestheaderUsernameHeaders', help: 'Headers an authenticating proxy names the user in (first non-empty wins), e.g. X-Remote-User.' },
  'requestheader-group-headers': { kind: 'list', key: 'requestheaderGroupHeaders', help: 'Headers an authenticating proxy lists groups in, e.g. X-Remote-Group.' },
  'requestheader-extra-headers-prefix': { kind: 'list', key: 'requestheaderExtraHeadersPrefix', help: 'Header prefixes of user extras from a proxy, e.g. X-Remote-Extra-.' },
  'requestheader-client-ca-file': { kind: 'string', key: 'requestheaderClientCaFile', help: 'PEM CA bundle the proxy\'s client certificate must verify against before its headers are trusted.' },
  'proxy-client-cert-file': { kind: 'string', key: 'proxyClientCertFile', help: 'PEM client certificate the aggregator presents to extension API servers (default: generated with its own front-proxy CA in the data dir).' },
  'proxy-client-key-file': { kind: 'string', key: 'proxyClientKeyFile', help: 'PEM key of --proxy-client-cert-file.' },
  'requestheader-allowed-names': { kind: 'list', key: 'requestheaderAllowedNames', help: 'Common names allowed for the proxy\'s client certificate (default: any).' },
  'anonymous-auth': { kind: 'boolean', key: 'anonymousAuth', help: 'Serve requests no authentication method claims as system:anonymous.' },
  'authorization-mode': { kind: 'list', key: 'authorizationModes', help: 'Ordered list of plug-ins to do authorization on secure port: AlwaysAllow, AlwaysDeny, RBAC, Webhook; the first allow or deny wins. AlwaysAllow turns --anonymous-auth off.' },
  'authorization-webhook-config-file': { kind: 'string', key: 'authorizationWebhookConfigFile', help: 'Kubeconfig-format file of the authorization webhook, used with --authorization-mode=Webhook (cluster = the service, user = our credentials, current context required).' },
  'authorization-webhook-version': { kind: 'string', key: 'authorizationWebhookVersion', help: 'SubjectAccessReview version sent to and expected from the authorization webhook: v1beta1 or v1.' },
  'authorization-webhook-cache-authorized-ttl': { kind: 'duration', key: 'authorizationWebhookCacheAuthorizedTtlMs', help: 'How long "authorized" answers of the authorization webhook are cached.' },
  'authorization-webhook-cache-unauthorized-ttl': { kind: 'duration', key: 'authorizationWebhookCacheUnauthorizedTtlMs', help: 'How long "unauthorized" answers of the authorization webhook are cached.' },
  'feature-gates': { kind: 'featureGates', key: 'featureGates', help: 'A set of key=value pairs that describe feature gates for alpha/experimental features; repeatable. Every gate of kube-apiserver 1.27 is known (AllAlpha and AllBeta set every alpha or beta gate not named); unknown gates and GA gates set against their locked value fail the start.' },
  'min-request-timeout': { kind: 'int', key: 'minRequestTimeoutSeconds', help: 'Seconds a watch lasts at least when it sets no timeoutSeconds (randomized up to twice as long).' },
  'service-cluster-ip-range': { kind: 'string', key: 'serviceClusterIpRange', help: 'IPv4 CIDR from which Service cluster IPs are allocated.' },
  'service-node-port-range': { kind: 'string', key: 'serviceNodePortRange', help: 'Port range from which NodePort Services get node ports.' },
  'storage-backend': { kind: 'storageBackend', key: 'storageBackend', help: 'The storage backend for persistence: etcd3 (needs --etcd-servers; implied by it). Unset: --storage decides.' },
  'etcd-servers': { kind: 'list', key: 'etcdServers', help: 'Comma list of etcd client URLs (http:// or https://); selects etcd instead of the embedded SQLite store.' },
  'etcd-prefix': { kind: 'string', key: 'etcdPrefix', help: 'The prefix of every key in etcd; servers with different prefixes share one etcd without seeing each other\'s objects.' },
  'etcd-cafile': { kind: 'string', key: 'etcdCafile', help: 'PEM CA bundle verifying the etcd servers\' certificates.' },
  'etcd-certfile': { kind: 'string', key: 'etcdCertfile', help: 'PEM client certificate presented to etcd.' },
  'etcd-keyfile': { kind: 'string', key: 'etcdKeyfile', help: 'PEM private key of --etcd-certfile.' },
  'etcd-compaction-interval': { kind: 'duration', key: 'etcdCompactionIntervalMs', help: 'Interval of compaction requests to etcd; one replica compacts per interval (0 disables). The embedded store keeps this long of history.' },
  'leader-elect': { kind: 'boolean', key: 'leaderElect', help: 'Run the controllers only on the replica holding the controller Lease in the system namespace.' },
  'leader-elect-lease-duration': { kind: 'duration', key: 'leaderElectLeaseDurationMs', help: 'How long other replicas wait after the leader\'s last renewal before taking the Lease.' },
  'leader-elect-renew-deadline': { kind: 'duration', key: 'leaderElectRenewDeadlineMs', help: 'How long the leader keeps trying to renew before it stops its controllers.' },
  'leader-elect-retry-period': { kind: 'duration', key: 'leaderElectRetryPeriodMs', help: 'Pause between attempts to acquire or renew the Lease.' },
  controllers: { kind: 'list', key: 'controllers', help: 'Controllers to enable: \'*\' enables every controller on by default, \'foo\' enables foo, \'-foo\' disables foo (kube-controller-manager\'s names).' },
  'service-account-private-key-file': { kind: 'string', key: 'serviceAccountPrivateKeyFile', help: 'PEM private key signing the tokens of legacy service account token Secrets (default: the service account signing key); its public key must verify (--service-account-key-file).' },
  'service-account-jwks-uri': { kind: 'string', key: 'serviceAccountJwksUri', help: 'https URL given as jwks_uri in /.well-known/openid-configuration (default: this server\'s /openid/v1/jwks).' },
  'cluster-signing-cert-file': { kind: 'string', key: 'clusterSigningCertFile', help: 'PEM CA certificate of every built-in CSR signer (default: the generated CA).' },
  'cluster-signing-key-file': { kind: 'string', key: 'clusterSigningKeyFile', help: 'PEM private key of --cluster-signing-cert-file.' },
  'cluster-signing-kube-apiserver-client-cert-file': { kind: 'string', key: 'clusterSigningKubeApiserverClientCertFile', help: 'PEM CA certificate of the API client signer only.' },
  'cluster-signing-kube-apiserver-client-key-file': { kind: 'string', key: 'clusterSigningKubeApiserverClientKeyFile', help: 'PEM private key of the API client signer only.' },
  'cluster-signing-kubelet-client-cert-file': { kind: 'string', key: 'clusterSigningKubeletClientCertFile', help: 'PEM CA certificate of the API client node signer only.' },
  'cluster-signing-kubelet-client-key-file': { kind: 'string', key: 'clusterSigningKubeletClientKeyFile', help: 'PEM private key of the API client node signer only.' },
  'cluster-signing-kubelet-serving-cert-file': { kind: 'string', key: 'clusterSigningKubeletServingCertFile', help: 'PEM CA certificate of the node serving signer only.' },
  'cluster-signing-kubelet-serving-key-file': { kind: 'string', key: 'clusterSigningKubeletServingKeyFile', help: 'PEM private key of the node serving signer only.' },
  'cluster-signing-legacy-unknown-cert-file': { kind: 'string', key: 'clusterSigningLegacyUnknownCertFile', help: 'PEM CA certificate of the legacy unknown signer only.' },
  'cluster-signing-legacy-unknown-key-file': { kind: 'string', key: 'clusterSigningLegacyUnknownKeyFile', help: 'PEM private key of the legacy unknown signer only.' },
  'cluster-signing-duration': { kind: 'duration', key: 'clusterSigningDurationMs', help: 'The longest lifetime of certificates the built-in signers issue; a shorter spec.expirationSeconds wins.' },
  'audit-policy-file': { kind: 'string', key: 'auditPolicyFile', help: 'Audit Policy file (kind Policy in audit.svc.io/v1; audit.k8s.io/v1 with --flavour=k8s); without it nothing is audited.' },
  'audit-log-path': { kind: 'string', key: 'auditLogPath', help: 'File the audit log backend writes events to, one JSON line each; "-" means stdout.' },
  'audit-log-maxage': { kind: 'int', key: 'auditLogMaxAge', help: 'Days rotated audit log files are kept (0: no limit).' },
  'audit-log-maxbackup': { kind: 'int', key: 'auditLogMaxBackup', help: 'Rotated audit log files kept (0: no limit).' },
  'audit-log-maxsize': { kind: 'int', key: 'auditLogMaxSize', help: 'Megabytes of the audit log file before it is rotated (0: 100).' },
  'audit-log-format': { kind: 'string', key: 'auditLogFormat', help: 'Format of audit log lines: json or legacy (one line of text per event).' },
  'audit-log-batch-buffer-size': { kind: 'int', key: 'auditLogBatchBufferSize', help: 'Events the audit log holds before dropping (each dropped event is counted and logged).' },
  'audit-log-batch-max-size': { kind: 'int', key: 'auditLogBatchMaxSize', help: 'Most events in one write of the audit log.' },
  'audit-log-batch-max-wait': { kind: 'duration', key: 'auditLogBatchMaxWaitMs', help: 'Longest wait before an incomplete batch is written (0: at once).' },
  'audit-webhook-config-file': { kind: 'string', key: 'auditWebhookConfigFile', help: 'Kubeconfig-format file of the audit webhook (cluster = the service, user = our credentials, current context required).' },
  'audit-webhook-batch-buffer-size': { kind: 'int', key: 'auditWebhookBatchBufferSize', help: 'Events the audit webhook backend holds before dropping.' },
  'audit-webhook-batch-max-size': { kind: 'int', key: 'auditWebhookBatchMaxSize', help: 'Most events in one request to the audit webhook.' },
  'audit-webhook-batch-max-wait': { kind: 'duration', key: 'auditWebhookBatchMaxWaitMs', help: 'Longest wait before an incomplete batch is sent.' },
  'audit-webhook-batch-throttle-qps': { kind: 'number', key: 'auditWebhookBatchThrottleQps', help: 'Batches sent per second at most (0: unthrottled).' },
  'audit-webhook-batch-throttle-burst': { kind: 'int', key: 'auditWebhookBatchThrottleBurst', help: 'Batches sent at once after a quiet time.' },
  'audit-webhook-initial-backoff': { kind: 'duration', key: 'auditWebhookInitialBackoffMs', help: 'Wait before the first retry of a failed request to the audit webhook.' },
  'show-hidden-metrics-for-version': { kind: 'string', key: 'showHiddenMetricsForVersion', help: 'The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: \'1.26\'.' },
  'disabled-metrics': { kind: 'list', key: 'disabledMetrics', help: 'Metrics never served, by their fully qualified names; disabling a metric wins over showing hidden metrics.' },
  'logging-format': { kind: 'loggingFormat', key: 'loggingFormat', help: 'Sets the log format: text (klog\'s lines) or json (one JSON object per line).' },
  v: { kind: 'int', key: 'verbosity', help: 'Number for the log level verbosity; 3 and above log every request.' },
  help: { kind: 'bool', key: 'help', help: 'Print this help.' },
};

/** The result of parsing a command line. */
export type ParsedFlags =
  /** The options, with the warnings parsing earned (a GA or deprecated feature gate set) for stderr. */
  | { readonly kind: 'options'; readonly options: ServerOptions; readonly warnings: readonly string[] }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };

/** A duration in Go's form (`0s`, `500ms`, `1m30s`, `2h0m0s`), as kube-apiserver prints flag defaults. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = (ms % 60_000) / 1000;
  if (h > 0) return `${h}h${m}m${sec}s`;
  if (m > 0) return `${m}m${sec}s`;
  return `${sec}s`;
}

/** A flag's default as its user would write it. */
function shownDefault(spec: FlagSpec, value: unknown): string | undefined {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  // The gates' defaults are listed under the flag instead.
  if (spec.kind === 'featureGates') return undefined;
  if (spec.kind === 'duration' && typeof value === 'number') return formatDuration(value);
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => `${k}=${String(v)}`).join(',');
  return String(value);
}

/** The `--help` text. */
export function helpText(): string {
  const labels = Object.entries(flags).map(([name, spec]) =>
    `  --${name}${spec.kind === 'bool' ? '' : spec.kind === 'boolean' ? '[=false]' : ' value'}`);
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  const lines = ['Usage: svc-apiserver [flags]', '', 'Flags:'];
  Object.values(flags).forEach((spec, i) => {
    const shown = spec.key === 'help' ? undefined : shownDefault(spec, defaultServerOptions[spec.key]);
    lines.push(labels[i]!.padEnd(width) + spec.help + (shown === undefined ? '' : ` (default ${shown})`));
    if (spec.kind === 'featureGates') lines.push(...settableFeatureGates().map((g) => ' '.repeat(width + 2) + g));
  });
  return lines.join('\n') + '\n';
}

/** Parses command-line arguments (without the node and script paths). */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  const out: Record<string, unknown> = { ...defaultServerOptions, tlsSans: [], enableAdmissionPlugins: [], disableAdmissionPlugins: [] };
  /** List flags given so far: the first occurrence replaces a list's default, later ones add to it. */
  const givenLists = new Set<string>();
  /** The feature gates set by `--feature-gates` flags so far, each flag adding to the earlier ones. */
  let gateSettings: FeatureGateSettings = {};
  const warnings: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--?([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) return { kind: 'error', message: `unexpected argument "${arg}"` };
    const name = m[1]!;
    const spec = flags[name];
    if (spec === undefined) return { kind: 'error', message: `unknown flag: --${name}` };
    if (spec.kind === 'boolean' && (m[2] === undefined || m[2] === 'true' || m[2] === 'false')) {
      out[spec.key] = m[2] !== 'false';
      continue;
    }
    if (spec.kind === 'boolean') return { kind: 'error', message: `invalid argument "${m[2]}" for "--${name}" flag` };
    if (spec.kind === 'bool') {
      if (m[2] === undefined || m[2] === 'true') return { kind: 'help', text: helpText() };
      continue;
    }
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined) return { kind: 'error', message: `flag needs an argument: --${name}` };
      i++;
    }
    const bad = (): ParsedFlags => ({ kind: 'error', message: `invalid argument "${value}" for "--${name}" flag` });
    switch (spec.kind) {
      case 'string':
        out[spec.key] = value;
        break;
      case 'list':
        if (!givenLists.has(spec.key)) {
          givenLists.add(spec.key);
          out[spec.key] = [];
        }
        (out[spec.key] as string[]).push(...value.split(',').map((v) => v.trim()).filter(Boolean));
        break;
      case 'int': {
        if (!/^\d+$/.test(value)) return bad();
        const n = Number(value);
        if (spec.key === 'securePort' && n > 65535) return bad();
        out[spec.key] = n;
        break;
      }
      case 'number': {
        if (!/^\d+(\.\d+)?$/.test(value)) return bad();
        out[spec.key] = Number(value);
        break;
      }
      case 'duration': {
        const ms = parseDuration(value);
        if (ms === undefined) return bad();
        out[spec.key] = ms;
        break;
      }
      case 'flavour': {
        const f = parseFlavour(value);
        if (f === undefined) return bad();
        out[spec.key] = f;
        break;
      }
      case 'storage':
        if (value !== 'sqlite' && value !== 'memory') return bad();
        out[spec.key] = value;
        break;
      case 'loggingFormat': {
        const format = parseLoggingFormat(value);
        if (format === undefined) return { kind: 'error', message: `invalid argument "${value}" for "--${name}" flag: supported values: "json", "text"` };
        out[spec.key] = format;
        break;
      }
      case 'storageBackend':
        if (value !== 'etcd3') return bad();
        out[spec.key] = value;
        break;
      case 'featureGates': {
        const gates = setFeatureGates(value, gateSettings);
        if (!gates.ok) return { kind: 'error', message: `invalid argument "${value}" for "--${name}" flag: ${gates.error}` };
        gateSettings = gates.value.settings;
        warnings.push(...gates.value.warnings);
        out[spec.key] = resolveFeatureGates(gateSettings);
        break;
      }
    }
  }
  const hiddenMetrics = validateShowHiddenMetricsVersion(out['showHiddenMetricsForVersion'] as string);
  if (hiddenMetrics !== undefined) return { kind: 'error', message: hiddenMetrics };
  if (out['storageBackend'] === 'etcd3' && (out['etcdServers'] as string[]).length === 0) {
    return { kind: 'error', message: '--etcd-servers must be specified with --storage-backend=etcd3' };
  }
  const lease = out['leaderElectLeaseDurationMs'] as number;
  const renew = out['leaderElectRenewDeadlineMs'] as number;
  const retry = out['leaderElectRetryPeriodMs'] as number;
  if (!(lease > renew && renew > retry && retry > 0)) {
    return { kind: 'error', message: 'leader election durations must satisfy lease duration > renew deadline > retry period > 0' };
  }
  return { kind: 'options', options: out as unknown as ServerOptions, warnings };
}
