/**
 * `startServer(options)`: the whole server in-process (kube-apiserver's CreateServerChain + Run, in one call).
 * Opens the store, loads the catalog, builds admission, the registry and the controllers, ensures the PKI and
 * serves HTTPS. `close()` shuts down gracefully in kube-apiserver's order: readyz fails, after the shutdown delay
 * the listener closes, in-flight requests finish, watches end, controllers stop, the store closes.
 */
import { join, resolve } from 'node:path';
import { mkdir, readFile } from 'node:fs/promises';
import { namesFor, type Names, type Result } from '@svc-apiserver/api';
import { defaultServerOptions, usesEtcd, type ServerOptions } from './config.js';
import type { Backend } from './storage/backend.js';
import { openSqliteBackend } from './storage/sqlite/sqlite-backend.js';
import { openMemoryBackend } from './storage/memory/memory-backend.js';
import { startCompactor } from './storage/compactor.js';
import type { EtcdBackend } from './storage/etcd/etcd-backend.js';
import { startEtcdCompactor } from './storage/etcd/etcd-compactor.js';
import { loadCatalog } from './schema/load-catalog.js';
import { createRegistry } from './registry/registry.js';
import { createAdmissionChain } from './admission/chain.js';
import { loadAdmissionConfiguration } from './admission/admission-configuration.js';
import { startControllers } from './controllers/index.js';
import { selectControllers } from './controllers/controller-table.js';
import { resourceHandler } from './http/handlers/resource-handler.js';
import { subresourceHandlers } from './http/handlers/subresources/index.js';
import { openapiV2Document } from './openapi/v2.js';
import { aggregatedV2 } from './openapi/aggregated-v2.js';
import { built as builtDocument, openapiV3Document, openapiV3Index } from './openapi/v3.js';
import { customResourceOpenApi } from './openapi/custom-resources.js';
import type { ServedResource } from './openapi/served.js';
import type { OpenApiSource } from './http/routes/openapi.js';
import { startApiServer, type ApiServer } from './http/api-server.js';
import { storageCheck } from './health/checks.js';
import { informerSyncCheck } from './health/informer-sync.js';
import type { ResourceDef } from './registry/resource-def.js';
import { optionalResources, servedResources } from './registry/served-resources.js';
import { applyRuntimeConfig, parseRuntimeConfig } from './registry/runtime-config.js';
import { loadContinueTokenKey } from './registry/continue-token-key.js';
import { parseIpRange, parsePortRange } from './registry/allocators/ip-range.js';
import { createServiceAllocator } from './registry/allocators/service-allocator.js';
import { startServiceAllocationFeed } from './registry/allocators/service-allocation-feed.js';
import { serviceStrategy } from './registry/resources/services.js';
import { buildAuthentication } from './auth/authentication-setup.js';
import type { Authorizer } from './request/authorizer.js';
import { buildAuthorization } from './auth/authz/authorization-setup.js';
import { rbacAuthorizer } from './auth/authz/rbac/rbac-authorizer.js';
import { registryRoleGetter, startRbacPolicySource } from './auth/authz/rbac/policy-source.js';
import { createRbacWriteGuard } from './auth/authz/rbac/escalation.js';
import type { RbacWriteGuard } from './registry/resources/rbac-write-guard.js';
import { roleStrategy } from './registry/resources/roles.js';
import { clusterRoleStrategy } from './registry/resources/clusterroles.js';
import { roleBindingStrategy } from './registry/resources/rolebindings.js';
import { clusterRoleBindingStrategy } from './registry/resources/clusterrolebindings.js';
import { subjectAccessReview } from './auth/reviews/subject-access-review.js';
import { localSubjectAccessReview } from './auth/reviews/local-subject-access-review.js';
import { selfSubjectAccessReview } from './auth/reviews/self-subject-access-review.js';
import { selfSubjectRulesReview } from './auth/reviews/self-subject-rules-review.js';
import type { ObjectGetter } from './auth/authn/object-getter.js';
import type { ServiceAccountTokenIssuer } from './auth/serviceaccount/token-issuer.js';
import { selfSubjectReview } from './auth/reviews/self-subject-review.js';
import { tokenReview } from './auth/reviews/token-review.js';
import { virtualKey } from './registry/virtual-resource.js';
import type { Clock } from './controllers/kit/clock.js';
import { identitySetup } from './identity-setup.js';
import { startClusterInfo } from './controllers/cluster-info.js';
import { startCrdServing } from './registry/custom-resources/crd-serving.js';
import { ensureFrontProxy, type FrontProxy } from './aggregator/front-proxy.js';
import { ensurePki, pkiCaName, servingSans, type Pki } from './pki/ensure-pki.js';
import { ensureSigningKey, type SigningKey } from './auth/serviceaccount/keys.js';
import { startRemoteApis } from './aggregator/remote-apis.js';
import { createAggregator } from './aggregator/aggregator.js';
import { publishExtensionAuthentication } from './aggregator/extension-authentication.js';
import { apiServerControllers } from './controllers/apiserver-controllers.js';
import { startApiServiceAutoregistration } from './aggregator/apiservice-autoregistration.js';
import { startApiServiceAvailability } from './aggregator/apiservice-availability.js';
import { registryServiceLookup } from './registry/service-lookup.js';
import { serviceResolver } from './outbound/service-resolver.js';
import { anonymousAuthInfo } from './outbound/auth-info-resolver.js';
import { customColumnsPrinter } from './http/table/custom-columns.js';
import { buildAuditor } from './audit/audit-setup.js';
import { createFlowController } from './flowcontrol/flow-controller.js';
import { startApfConfiguration } from './controllers/flowcontrol/apf-configuration.js';
import { startupBatch } from './controllers/startup-batch.js';
import { serverMetrics } from './metrics/metrics-registry.js';
import { recordFeatureStates, registerProcessMetrics } from './metrics/component-metrics.js';
import { featureGateStates } from './feature-gates.js';
import { instrumentBackend, storageMetrics, watchCacheObserver } from './registry/storage-metrics.js';
import { createLogger, logFunction, type Logger } from './logging/logger.js';
import { pendingCheck } from './health/pending-check.js';
import { reportedAs } from './health/merged-checks.js';
import { defaultComponents, probeComponents } from './health/component-statuses.js';
import { startKubernetesService } from './controllers/kubernetes-service/bootstrap-controller.js';
import { advertiseAddress } from './controllers/kubernetes-service/advertise-address.js';
import { markLogHelper } from './logging/caller.js';

// The server's log callbacks only pass messages on: a line's caller is the code that called them.
markLogHelper(import.meta.url);

/** Options of {@link startServer}: the flags, each optional (defaults as the flags'). */
export type StartServerOptions = Partial<ServerOptions> & {
  /** The logger (default: one on stderr in `loggingFormat` at `verbosity`). */
  readonly logger?: Logger;
  /** Where the server's messages go (default: the logger's info and error lines). */
  readonly log?: (message: string, error?: unknown) => void;
  /** Compaction window of the embedded store's history, in ms (default `--etcd-compaction-interval`). */
  readonly compactionWindowMs?: number;
  /** Period of watch BOOKMARK events (default 1 minute, kube's). */
  readonly bookmarkIntervalMs?: number;
  /** The time of the time-driven controllers (cleaners, token expiry, signing); tests step a fake one. */
  readonly clock?: Clock;
  /** How often APIServices of extension servers are checked for availability (default 30 s, kube's). */
  readonly apiServiceCheckIntervalMs?: number;
  /** Bytes of events a watcher that does not read may have waiting before its watch is cut off (default 16 MiB). */
  readonly maxWatchBacklogBytes?: number;
  /** How long a watcher that does not read may take to read the end of its watch before it is dropped (default 10 s). */
  readonly stalledWatchLingerMs?: number;
  /** The `kubernetes` Service's reconcile interval and master lease time (default 10 s and 15 s, kube's). */
  readonly kubernetesService?: { readonly intervalMs?: number; readonly leaseTtlMs?: number };
  /** How often expired API server identity Leases are collected (default 1 h, kube's). */
  readonly identityLeaseGcPeriodMs?: number;
  /** Period of API Priority and Fairness's adjustment of the levels' limits to their seat demand (default 10 s, kube's). */
  readonly borrowingAdjustmentPeriodMs?: number;
  /** How often the stored objects are counted for the cost of lists (default 1 minute, kube's count poll period). */
  readonly objectCountPeriodMs?: number;
};

/** A running server: where it serves, the admin credentials, and how long it took to start. */
export interface RunningServer extends Omit<ApiServer, 'shuttingDown'> {
  /** Milliseconds from the call to ready. */
  readonly startupMs: number;
  /**
   * Resolves once /readyz passes (post-start hooks such as the default RBAC policy done, caches synced); the server
   * serves before that, as kube-apiserver does.
   */
  ready(): Promise<void>;
  /** Issues service account tokens with the server's signing key and issuer. */
  readonly serviceAccountTokens: ServiceAccountTokenIssuer;
}

/** The served set the OpenAPI documents cover: every served resource and subresource. */
function servedForOpenApi(defs: readonly ResourceDef[]): ServedResource[] {
  const out: ServedResource[] = [];
  for (const d of defs) {
    out.push({ groupKey: d.groupKey, version: d.version, resource: d.resource });
    for (const s of d.subresources) out.push({ groupKey: d.groupKey, version: d.version, resource: `${d.resource}/${s.name}` });
  }
  return out;
}

/** The create-only resources answered by a virtual create below (others wait for their implementation). */
const virtualResourceKeys: ReadonlySet<string> = new Set([
  virtualKey('authentication', 'v1', 'tokenreviews'),
  virtualKey('authentication', 'v1alpha1', 'selfsubjectreviews'),
  virtualKey('authentication', 'v1beta1', 'selfsubjectreviews'),
  virtualKey('authorization', 'v1', 'subjectaccessreviews'),
  virtualKey('authorization', 'v1', 'localsubjectaccessreviews'),
  virtualKey('authorization', 'v1', 'selfsubjectaccessreviews'),
  virtualKey('authorization', 'v1', 'selfsubjectrulesreviews'),
  // core bindings: answered by the pods/binding handler (http/handlers/subresources/binding.ts).
  virtualKey('', 'v1', 'bindings'),
]);

/**
 * The etcd backend of `--etcd-servers`: kube's `--etcd-prefix` takes the place of the `/registry` root of every key,
 * and the TLS files are read once at start. Connecting is lazy, so a server starts while etcd is down and serves
 * once it is reachable.
 */
async function openEtcd(o: ServerOptions): Promise<EtcdBackend> {
  const read = (file: string): Promise<Buffer> => readFile(file);
  const prefix = o.etcdPrefix.replace(/\/+$/, '');
  const tls = o.etcdCafile === ''
    ? undefined
    : {
      ca: await read(o.etcdCafile),
      ...(o.etcdCertfile === '' ? {} : { cert: await read(o.etcdCertfile) }),
      ...(o.etcdKeyfile === '' ? {} : { key: await read(o.etcdKeyfile) }),
    };
  // The etcd client (gRPC and its protocol definitions) loads only for servers that use etcd.
  const { openEtcdBackend } = await import('./storage/etcd/etcd-backend.js');
  return openEtcdBackend({
    endpoints: o.etcdServers,
    prefix,
    replaceRoot: '/registry',
    ...(tls === undefined ? {} : { tls }),
  });
}

/** The server's key material, being loaded or generated. */
interface KeyMaterial {
  readonly pki: Promise<Pki>;
  readonly frontProxy: Promise<Result<FrontProxy, string>>;
  readonly signingKey: Promise<Result<SigningKey, string>>;
}

/**
 * Begins loading the PKI, the front-proxy identity and the service account signing key, all at once; what a data
 * directory lacks is generated (kube's own bootstrap makes these files before the server runs). A start that fails
 * before awaiting one of them must not leave its rejection unhandled: each carries a no-op handler, and awaiting it
 * still rejects.
 */
function startKeyMaterial(o: ServerOptions, names: Names, dataDir: string): KeyMaterial {
  const keys: KeyMaterial = {
    pki: ensurePki({ dir: dataDir, sans: servingSans(o.bindAddress, o.tlsSans), caName: pkiCaName(names) }),
    frontProxy: ensureFrontProxy({
      dataDir, proxyClientCertFile: o.proxyClientCertFile, proxyClientKeyFile: o.proxyClientKeyFile,
      requestheaderClientCaFile: o.requestheaderClientCaFile, requestheaderAllowedNames: o.requestheaderAllowedNames,
    }),
    signingKey: ensureSigningKey(o.serviceAccountSigningKeyFile, dataDir),
  };
  for (const p of Object.values(keys) as Promise<unknown>[]) p.catch(() => {});
  return keys;
}

/** Starts a server. Rejects when it cannot start (bad admission plugin name, port in use, unreadable data). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const started = performance.now();
  const o: ServerOptions = { ...defaultServerOptions, ...options };
  const logger = options.logger ?? createLogger({ format: o.loggingFormat, verbosity: o.verbosity });
  const log = options.log ?? logFunction(logger);
  const names = namesFor(o.flavour);
  const dataDir = resolve(o.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  const etcd = usesEtcd(o) ? await openEtcd(o) : undefined;
  const backend: Backend = etcd ?? (o.storage === 'memory' ? openMemoryBackend() : openSqliteBackend({ path: join(dataDir, 'state.db') }));
  const cleanups: (() => Promise<void> | void)[] = [() => backend.close()];
  // The key material next: on a first start its generation (the RSA service account key above all) runs beside the
  // rest of the start instead of one piece after another; each is awaited where it is first needed. A start that
  // fails before then still waits for it, so nothing writes to the data directory once startServer has answered.
  const keys = startKeyMaterial(o, names, dataDir);
  cleanups.push(async () => {
    await Promise.allSettled([keys.pki, keys.frontProxy, keys.signingKey]);
  });
  // Metrics (kube's legacyregistry is the process's too): flags first, then every figure the server fills.
  serverMetrics.disable(o.disabledMetrics);
  if (o.showHiddenMetricsForVersion !== '') serverMetrics.showHidden();
  registerProcessMetrics(serverMetrics);
  recordFeatureStates(featureGateStates(o.featureGates), serverMetrics);
  /** The served resource of each store prefix (the storage metrics' labels), kept as the served set changes. */
  const storedResources = new Map<string, ResourceDef>();
  const timedBackend = instrumentBackend(backend, (prefix) => storedResources.get(prefix));
  const cleanup = async (): Promise<void> => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        log('shutdown step failed', e);
      }
    }
  };
  try {
    // etcd is compacted by kube's shared-key protocol (one replica per interval); the embedded stores keep a time
    // window of history as long as the same interval (kube compacts to the revision it saw one interval ago).
    const historyWindowMs = options.compactionWindowMs ?? o.etcdCompactionIntervalMs;
    const compactor = etcd !== undefined
      ? startEtcdCompactor(etcd.client, { intervalMs: o.etcdCompactionIntervalMs, onError: (e) => log('compaction failed', e) })
      : historyWindowMs > 0 ? startCompactor(backend, { windowMs: historyWindowMs, onError: (e) => log('compaction failed', e) }) : undefined;
    if (compactor !== undefined) cleanups.push(() => compactor.stop());
    const catalog = loadCatalog(names);
    const admissionConfiguration = o.admissionControlConfigFile === '' ? undefined : loadAdmissionConfiguration(o.admissionControlConfigFile, names);
    if (admissionConfiguration !== undefined && !admissionConfiguration.ok) throw new Error(admissionConfiguration.error);
    const admission = createAdmissionChain({
      enable: [...o.enableAdmissionPlugins], disable: [...o.disableAdmissionPlugins], names,
      ...(admissionConfiguration === undefined ? {} : { configuration: admissionConfiguration.value }),
      flags: { defaultNotReadyTolerationSeconds: o.defaultNotReadyTolerationSeconds, defaultUnreachableTolerationSeconds: o.defaultUnreachableTolerationSeconds },
      featureGates: o.featureGates,
    });
    if (!admission.ok) throw new Error(admission.error.message ?? 'invalid admission configuration');
    // kube warns as it constructs an enabled deprecated plugin.
    for (const p of admission.value.plugins) if (p.deprecationWarning !== undefined) logger.warning(p.deprecationWarning);
    const enabledControllers = selectControllers(o.controllers);
    if (!enabledControllers.ok) throw new Error(enabledControllers.error);
    const runtimeConfig = parseRuntimeConfig(o.runtimeConfig);
    if (!runtimeConfig.ok) throw new Error(runtimeConfig.error);
    const defaultServed = new Set(servedResources);
    const servedSet = applyRuntimeConfig([...servedResources, ...optionalResources], (r) => defaultServed.has(r), runtimeConfig.value, names,
      catalog.resources.map((r) => (r.group === '' ? r.version : `${r.group}/${r.version}`)));
    if (!servedSet.ok) throw new Error(servedSet.error);
    // Create-only resources (access reviews, bindings) are answered by code, not storage: served where it exists.
    const servedStored = servedSet.value.filter((r) => {
      // kube installs SelfSubjectReview only with its gate on (beta in 1.27, on by default).
      if (r.groupKey === 'authentication' && r.resource === 'selfsubjectreviews' && !o.featureGates.APISelfSubjectReview) return false;
      // Likewise ClusterTrustBundles, with kube's warning when the version is enabled but the gate is not.
      if (r.groupKey === 'certificates' && r.resource === 'clustertrustbundles' && !o.featureGates.ClusterTrustBundle) {
        logger.warning('ClusterTrustBundle storage is disabled because the ClusterTrustBundle feature gate is disabled');
        return false;
      }
      const entry = catalog.resources.find((c) => c.groupKey === r.groupKey && c.version === r.version && c.resource === r.resource);
      const createOnly = entry !== undefined && entry.verbs.length === 1 && entry.verbs[0] === 'create';
      return !createOnly || virtualResourceKeys.has(virtualKey(r.groupKey, r.version, r.resource));
    });
    const ipRange = parseIpRange(o.serviceClusterIpRange);
    if (!ipRange.ok) throw new Error(ipRange.error);
    const advertised = advertiseAddress(o.advertiseAddress, o.bindAddress);
    if (!advertised.ok) throw new Error(advertised.error);
    const portRange = parsePortRange(o.serviceNodePortRange);
    if (!portRange.ok) throw new Error(portRange.error);
    // The range records in the store are shared by every replica on it (kube's /registry/ranges/*).
    const serviceAllocator = createServiceAllocator(ipRange.value, portRange.value, Date.now, { backend });
    // The RBAC strategies check their writers against the server's authorizer, which needs the registry: late-bound.
    let writeGuard: RbacWriteGuard | undefined;
    const guard = () => writeGuard;
    // Admission plugins ask the server's authorizer (OwnerReferencesPermissionEnforcement, NodeRestriction): late-bound.
    let admissionAuthorizer: Authorizer | undefined;
    const registry = createRegistry({
      backend: timedBackend, catalog, names, admission: admission.value, served: servedStored, authorizer: () => admissionAuthorizer,
      featureGates: o.featureGates,
      strategies: {
        'core/services': (n) => serviceStrategy(serviceAllocator, n),
        'rbac.authorization/roles': () => roleStrategy(guard),
        'rbac.authorization/clusterroles': () => clusterRoleStrategy(guard),
        'rbac.authorization/rolebindings': (n) => roleBindingStrategy(n, guard),
        'rbac.authorization/clusterrolebindings': (n) => clusterRoleBindingStrategy(n, guard),
      },
      store: {
        names,
        watchList: o.featureGates.WatchList,
        apiListChunking: o.featureGates.APIListChunking,
        minRequestTimeoutSeconds: o.minRequestTimeoutSeconds,
        ...(options.maxWatchBacklogBytes !== undefined ? { maxWatchBacklogBytes: options.maxWatchBacklogBytes } : {}),
        ...(options.stalledWatchLingerMs !== undefined ? { stalledWatchLingerMs: options.stalledWatchLingerMs } : {}),
        // Continue tokens outlive a restart on durable storage; with memory storage nothing does, a process key is right.
        ...(o.storage === 'memory' ? {} : { continueTokenKey: await loadContinueTokenKey(dataDir) }),
        cache: {
          // The embedded store's history window bounds its watch cache too, so a compacted revision expires there.
          windowMs: etcd === undefined && historyWindowMs > 0 ? historyWindowMs : options.compactionWindowMs ?? 5 * 60 * 1000,
          ...(options.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
          log: (m) => log(m),
          observer: watchCacheObserver((prefix) => storedResources.get(prefix)),
        },
      },
    });
    cleanups.push(() => registry.store.close());
    const mapStorage = (): void => {
      storedResources.clear();
      for (const def of registry.all()) if (!storedResources.has(def.keyPrefix)) storedResources.set(def.keyPrefix, def);
    };
    mapStorage();
    cleanups.push(registry.onChange(mapStorage));
    cleanups.push(storageMetrics().countObjects(backend, () => registry.all()));
    cleanups.push(() => admission.value.close());
    // Custom resources are served on every replica from the CRDs in the store (apiextensions-apiserver's handler).
    const services = serviceResolver(registryServiceLookup(registry));
    const crdServing = startCrdServing(registry, names, {
      webhookResolvers: { services, authInfo: anonymousAuthInfo }, validationRules: o.featureGates.CustomResourceValidationExpressions,
    });
    cleanups.push(() => crdServing.stop());
    // The aggregator: APIServices of extension API servers, proxied with the front-proxy identity.
    const frontProxy = await keys.frontProxy;
    if (!frontProxy.ok) throw new Error(frontProxy.error);
    const remoteApis = startRemoteApis(registry);
    cleanups.push(() => remoteApis.stop());
    const aggregator = createAggregator(remoteApis, { frontProxy: frontProxy.value, services });
    const allocationFeed = await startServiceAllocationFeed(registry, serviceAllocator, (m) => log(m));
    cleanups.push(() => allocationFeed.stop());
    const lookupObject: ObjectGetter = async (resource, namespace, name) => {
      const def = registry.lookup('', 'v1', resource);
      if (def === undefined) return undefined;
      const got = await registry.store.get(def, namespace, name);
      if (got.ok) return got.value;
      if (got.error.code === 404) return undefined;
      throw new Error(got.error.message ?? `cannot read ${resource}`);
    };
    const authn = await buildAuthentication(o, { names, get: lookupObject, dataDir, signingKey: keys.signingKey, log: (m) => log(m) });
    if (!authn.ok) throw new Error(authn.error);
    cleanups.push(() => authn.value.close());
    const policy = startRbacPolicySource(registry, names, { log: (m) => log(m) });
    cleanups.push(() => policy.stop());
    const rbac = rbacAuthorizer(policy, names);
    const authz = buildAuthorization(o, { names, rbac: () => rbac, log: (m) => log(m) });
    if (!authz.ok) throw new Error(authz.error);
    // One authorizer for the filters, the handlers (an apply that creates asks it about `create` too) and reviews.
    const authorizer: Authorizer = authz.value.authorizer;
    admissionAuthorizer = authorizer;
    writeGuard = createRbacWriteGuard({ resolver: rbac.resolver, authorizer: () => authorizer, names, getRole: registryRoleGetter(registry, names) });
    const pki = await keys.pki;
    const identity = await identitySetup(o, { names, dataDir, registry, authentication: authn.value, authorizer, pki, log: (m) => log(m) });
    if (!identity.ok) throw new Error(identity.error);
    identity.value.initializeAdmission(admission.value.plugins);
    let controllersStarted = false;
    // The start objects (system namespaces, default RBAC policy, API Priority and Fairness configuration) are created
    // together once every writer below has handed its creates; sealed once the last has joined.
    const startup = startupBatch(registry);
    // Only etcd can be shared by several replicas; an embedded store has one server, so nothing to elect there.
    const controllers = await startControllers({
      registry, names, controllers: enabledControllers.value, log: (m) => log(m), startup,
      config: { ...identity.value.controllerConfig, ...(options.clock === undefined ? {} : { clock: options.clock }) },
      apiServerIdentity: {
        enabled: o.featureGates.APIServerIdentity,
        ...(options.identityLeaseGcPeriodMs === undefined ? {} : { gcPeriodMs: options.identityLeaseGcPeriodMs }),
      },
      apiServerControllers: [
        ...apiServerControllers,
        startApiServiceAutoregistration,
        (c) => startApiServiceAvailability(c, {
          remote: remoteApis, frontProxy: frontProxy.value, services,
          ...(options.apiServiceCheckIntervalMs !== undefined ? { intervalMs: options.apiServiceCheckIntervalMs } : {}),
        }),
      ],
      ...(etcd !== undefined && o.leaderElect
        ? {
          leaderElection: {
            leaseDurationMs: o.leaderElectLeaseDurationMs,
            renewDeadlineMs: o.leaderElectRenewDeadlineMs,
            retryPeriodMs: o.leaderElectRetryPeriodMs,
            log: (m: string) => log(m),
          },
        }
        : {}),
    });
    controllersStarted = true;
    cleanups.push(() => controllers.stop());
    // A start that fails before the seal below still lets the writers that joined finish (run before their stop).
    cleanups.push(() => startup.seal());

    let protobufCache: { hash: string; bytes: Uint8Array } | undefined;
    const served = (): ServedResource[] => servedForOpenApi(registry.all().filter((d) => d.custom === undefined));
    const customOpenApi = customResourceOpenApi(registry, names);
    // The aggregated APIServices' documents are merged after the server's own (built-in and custom resources).
    const mergeRemote = aggregatedV2();
    const v2 = () => mergeRemote(customOpenApi.v2(openapiV2Document(catalog, served())), aggregator.openapiV2());
    const openapi: OpenApiSource = {
      v2,
      v2Protobuf: async () => {
        const doc = v2();
        // protobufjs is loaded on the first request for this form (kubectl's), not at start.
        const { openapiV2Protobuf } = await import('./openapi/v2-protobuf.js');
        if (protobufCache?.hash !== doc.hash) protobufCache = { hash: doc.hash, bytes: openapiV2Protobuf(doc.document) };
        return protobufCache.bytes;
      },
      v3Index: () => {
        const index = openapiV3Index(catalog, served());
        const custom = customOpenApi.documents();
        if (custom.size === 0 && aggregator.openapiV3().size === 0) return index;
        const paths = { ...index.document.paths };
        for (const [gv, doc] of custom) paths[gv] ??= { serverRelativeURL: `/openapi/v3/${gv}?hash=${doc.hash}` };
        for (const [gv, doc] of aggregator.openapiV3()) paths[gv] ??= { serverRelativeURL: `/openapi/v3/${gv}?hash=${doc.hash}` };
        return builtDocument({ paths });
      },
      v3: (gv) => openapiV3Document(catalog, gv, served()) ?? customOpenApi.documents().get(gv) ?? aggregator.openapiV3().get(gv),
    };

    // API Priority and Fairness in the place of the max-in-flight limit; its seats are the two limits together.
    if (o.featureGates.APIPriorityAndFairness && o.maxRequestsInFlight + o.maxMutatingRequestsInFlight <= 0) {
      throw new Error(`--max-requests-inflight=${o.maxRequestsInFlight} and --max-mutating-requests-inflight=${o.maxMutatingRequestsInFlight} must sum to a positive value`);
    }
    const flowController = o.featureGates.APIPriorityAndFairness
      ? createFlowController({
        serverConcurrencyLimit: o.maxRequestsInFlight + o.maxMutatingRequestsInFlight, waitLimitMs: 15_000, listChunking: o.featureGates.APIListChunking,
        ...(options.borrowingAdjustmentPeriodMs === undefined ? {} : { adjustmentPeriodMs: options.borrowingAdjustmentPeriodMs }),
      })
      : undefined;
    const apfConfiguration = flowController === undefined ? undefined : startApfConfiguration(registry, names, flowController, {
      log: (m) => log(m), writer: startup.join(), ...(options.objectCountPeriodMs === undefined ? {} : { objectCountPeriodMs: options.objectCountPeriodMs }),
    });
    if (apfConfiguration !== undefined) cleanups.push(() => apfConfiguration.stop());
    startup.seal();
    const auditor = await buildAuditor(o, names, (m) => log(m));
    if (!auditor.ok) throw new Error(auditor.error);
    // Flushed on close, after the listener closed and the last request was audited.
    if (auditor.value !== undefined) {
      const backend = auditor.value.backend;
      cleanups.push(() => backend.shutdown());
    }
    // The bootstrap of the kubernetes Service and of cluster-info need the port and URL the listener gets: their
    // check stands in until then. kube-apiserver has no cluster-info hook; it answers with the bootstrap controller.
    const bootstrapCheck = pendingCheck('poststarthook/bootstrap-controller');
    const clusterInfoCheck = pendingCheck('poststarthook/bootstrap-controller');
    const storeCheck = storageCheck(backend);
    const componentStatuses = { list: () => probeComponents(defaultComponents(storeCheck)) };
    const api = await startApiServer({
      dataDir,
      bindAddress: o.bindAddress,
      port: o.securePort,
      tlsSans: o.tlsSans,
      pki,
      names,
      maxRequestBodyBytes: o.maxRequestBodyBytes,
      maxRequestsInFlight: o.maxRequestsInFlight,
      maxMutatingRequestsInFlight: o.maxMutatingRequestsInFlight,
      requestTimeoutMs: o.requestTimeoutMs,
      livezGracePeriodMs: o.livezGracePeriodMs,
      shutdownDelayMs: o.shutdownDelayMs,
      resourceHandler: resourceHandler(registry, new Map([
        [virtualKey('authentication', 'v1', 'tokenreviews'), tokenReview(authn.value.tokens, authn.value.apiAudiences)],
        [virtualKey('authentication', 'v1alpha1', 'selfsubjectreviews'), selfSubjectReview()],
        [virtualKey('authentication', 'v1beta1', 'selfsubjectreviews'), selfSubjectReview()],
        [virtualKey('authorization', 'v1', 'subjectaccessreviews'), subjectAccessReview(authorizer)],
        [virtualKey('authorization', 'v1', 'localsubjectaccessreviews'), localSubjectAccessReview(authorizer)],
        [virtualKey('authorization', 'v1', 'selfsubjectaccessreviews'), selfSubjectAccessReview(authorizer)],
        [virtualKey('authorization', 'v1', 'selfsubjectrulesreviews'), selfSubjectRulesReview(authorizer)],
      ]), subresourceHandlers({ tokens: { issuer: authn.value.tokenIssuer, apiAudiences: authn.value.apiAudiences } }), authorizer,
      new Map([[virtualKey('', 'v1', 'componentstatuses'), componentStatuses]])),
      authorizer,
      authentication: (generatedCaPem) => authn.value.forServer(generatedCaPem),
      resources: () => registry.all(),
      ...(auditor.value === undefined ? {} : { auditor: auditor.value }),
      ...(flowController === undefined ? {} : { flowController }),
      openapi,
      checks: [storeCheck, ...controllers.checks, crdServing.check, bootstrapCheck, clusterInfoCheck, ...(apfConfiguration?.checks ?? [])],
      ...(identity.value.issuerDiscovery === undefined ? {} : { issuerDiscovery: identity.value.issuerDiscovery }),
      readyChecks: [
        storageCheck(backend, { name: 'etcd-readiness' }),
        informerSyncCheck(backend, registry.store.caches, { controllersStarted: () => controllersStarted }),
        ...controllers.informerChecks,
        reportedAs('informer-sync', policy.health),
      ],
      aggregator,
      metrics: serverMetrics,
      servedResource: (info) => registry.lookup(info.apiGroup, info.apiVersion, info.resource) !== undefined,
      printerFor: (info) => {
        const custom = registry.lookup(info.apiGroup, info.apiVersion, info.resource)?.custom;
        return custom === undefined ? undefined : customColumnsPrinter(custom.columns);
      },
      log,
      logger,
    });
    const kubernetesService = startKubernetesService({
      registry, names, serviceIp: ipRange.value.at(0), publicPort: api.port, advertiseAddress: advertised.value,
      ...(options.kubernetesService?.intervalMs === undefined ? {} : { intervalMs: options.kubernetesService.intervalMs }),
      ...(options.kubernetesService?.leaseTtlMs === undefined ? {} : { leaseTtlMs: options.kubernetesService.leaseTtlMs }),
      log: (m) => log(m),
    });
    bootstrapCheck.attach(kubernetesService.checks[0]!);
    cleanups.push(() => kubernetesService.stop());
    const clusterInfo = startClusterInfo(registry, names, { server: api.url, caPem: api.ca, log: (m) => log(m) });
    clusterInfoCheck.attach(reportedAs('poststarthook/bootstrap-controller', { ...clusterInfo.checks[0]!, name: 'cluster-info' }));
    const startedClusterInfo = clusterInfo;
    cleanups.push(async () => {
      startedClusterInfo.stop();
      await startedClusterInfo.done;
    });
    // Extension API servers read who may call them from the system namespace (kube's client-CA registration hook).
    const extensionAuth = publishExtensionAuthentication(registry, names, {
      clientCa: async () => [api.ca, o.clientCaFile === '' ? '' : await readFile(o.clientCaFile, 'utf8')].filter((p) => p !== '').join('\n'),
      frontProxy: frontProxy.value,
      usernameHeaders: o.requestheaderUsernameHeaders, groupHeaders: o.requestheaderGroupHeaders, extraHeadersPrefix: o.requestheaderExtraHeadersPrefix,
    });
    cleanups.push(() => extensionAuth.stop());
    let closing: Promise<void> | undefined;
    return {
      url: api.url,
      port: api.port,
      dataDir: api.dataDir,
      kubeconfigPath: api.kubeconfigPath,
      ca: api.ca,
      adminCert: api.adminCert,
      adminKey: api.adminKey,
      startupMs: Math.round(performance.now() - started),
      ready: () => api.ready(),
      serviceAccountTokens: authn.value.tokenIssuer,
      close() {
        closing ??= (async () => {
          await api.close();
          await cleanup();
        })();
        return closing;
      },
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
