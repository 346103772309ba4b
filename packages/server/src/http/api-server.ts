/**
 * The HTTP side of the server, independent of storage and resources: PKI and the admin kubeconfig, the filter
 * chain (audit ID → panic recovery → request info → request log → cache control → request timeout → body limit →
 * authentication → audit → impersonation → priority and fairness, or max in-flight without it → authorization →
 * request metrics), the routes (resource requests to the resource handler, everything else to the non-resource
 * router), health endpoints, listening and graceful shutdown.
 */
import { mkdir } from 'node:fs/promises';
import { isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';
import type { Names } from '@svc-apiserver/api';
import type { ApiResource } from '../schema/catalog.js';
import type { HealthCheck } from '../health/health-check.js';
import { healthEndpoint } from '../health/health-endpoint.js';
import { logCheck, pingCheck, shutdownCheck, withGracePeriod } from '../health/checks.js';
import { inKubeOrder } from '../health/check-order.js';
import { mergeChecks } from '../health/merged-checks.js';
import { ensurePki, pkiCaName, servingSans, writeFileAtomic, type Pki } from '../pki/ensure-pki.js';
import { kubeconfigYaml } from '../pki/kubeconfig.js';
import { authenticatorUnion } from '../auth/authn/authenticator.js';
import { x509Authenticator } from '../auth/authn/x509.js';
import { alwaysAllow } from '../auth/authz/always-allow.js';
import type { Authorizer } from '../request/authorizer.js';
import { authorizerUnion } from '../auth/authz/authorizer-union.js';
import type { RequestContext } from './context.js';
import { buildChain } from './filters/chain.js';
import { panicRecovery } from './filters/panic-recovery.js';
import { requestInfoFilter } from './filters/request-info.js';
import { requestTimeout } from './filters/request-timeout.js';
import { bodyLimit } from './filters/body-limit.js';
import { authentication } from './filters/authentication.js';
import { impersonation } from './filters/impersonation.js';
import type { RequestAuthentication } from '../auth/authentication-setup.js';
import { authorization } from './filters/authorization.js';
import { defaultMaxMutatingRequestsInFlight, defaultMaxRequestsInFlight, maxInFlight } from './filters/max-in-flight.js';
import { auditId } from './filters/audit-id.js';
import { cacheControl } from './filters/cache-control.js';
import { httpLog } from './filters/http-log.js';
import type { Logger } from '../logging/logger.js';
import { audit, failedAuthenticationAudit } from './filters/audit.js';
import type { Auditor } from '../audit/auditor.js';
import type { FlowController } from '../flowcontrol/flow-controller.js';
import { priorityAndFairness } from './filters/priority-and-fairness.js';
import { nonResourceRouter } from './routes/non-resource-router.js';
import { requestMetrics } from './filters/request-metrics.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { endpointMetrics } from '../metrics/endpoint-metrics.js';
import type { RequestInfo } from '../request/request-info.js';
import type { ServedGroup } from './routes/discovery.js';
import type { OpenApiSource } from './routes/openapi.js';
import { startHttpsServer, type HttpsServerOptions } from './https-server.js';
import { createTurnLanes } from './turn-scheduler.js';
import type { IssuerDiscovery } from '../auth/serviceaccount/issuer-discovery.js';

/** File name of the admin kubeconfig in the data directory. */
export const adminKubeconfigFile = 'admin.kubeconfig';

/** Everything the HTTP side needs. */
export interface ApiServerOptions {
  readonly dataDir: string;
  readonly bindAddress: string;
  readonly port: number;
  readonly tlsSans: readonly string[];
  /** The PKI when the caller ensured it already (the server does, early, so that generating it overlaps its start). */
  readonly pki?: Pki;
  readonly names: Names;
  readonly maxRequestBodyBytes: number;
  /** `--max-requests-inflight` (default 400, kube's; 0: no limit). */
  readonly maxRequestsInFlight?: number;
  /** `--max-mutating-requests-inflight` (default 200, kube's; 0: no limit). */
  readonly maxMutatingRequestsInFlight?: number;
  /** `--request-timeout`: the deadline of requests that are not long-running (0: none; default 60 s). */
  readonly requestTimeoutMs?: number;
  readonly livezGracePeriodMs: number;
  readonly shutdownDelayMs: number;
  /** Serves every request whose info.isResourceRequest. */
  readonly resourceHandler: (ctx: RequestContext) => Promise<void>;
  /** The served resources (discovery). */
  readonly resources: () => readonly ApiResource[];
  /** The Table printer of a resource request's resource when it has its own (custom resources). */
  readonly printerFor?: HttpsServerOptions['printerFor'];
  /**
   * The aggregator: answers a request for a group-version an extension API server serves (true), before the
   * server's own handlers; `remoteGroups` lists those groups in discovery.
   */
  readonly aggregator?: {
    handle(ctx: RequestContext): Promise<boolean>;
    remoteGroups(): readonly ServedGroup[];
  };
  readonly openapi?: OpenApiSource;
  /**
   * Checks of livez, readyz and healthz besides ping and log (etcd, poststarthook/...); checks of one name answer
   * as one, and the endpoints list them in kube-apiserver's order.
   */
  readonly checks: readonly HealthCheck[];
  /** Checks of readyz only (etcd-readiness, informer-sync); shutdown is added. */
  readonly readyChecks: readonly HealthCheck[];
  readonly log: (message: string, error?: unknown) => void;
  /** The logger of the request log (written at verbosity 3 and above); undefined logs no requests. */
  readonly logger?: Logger;
  /**
   * Request authentication, given the generated CA (PEM), which must stay a client CA so the admin certificate
   * keeps working. Default: client certificates of that CA, anonymous otherwise.
   */
  readonly authentication?: (generatedCaPem: string) => RequestAuthentication;
  /**
   * The authorizer of the impersonation and authorization filters; the resource handler must use the same one.
   * Default: allow everything (kube-apiserver's AlwaysAllow mode).
   */
  readonly authorizer?: Authorizer;
  /** The auditor of `--audit-policy-file`; undefined audits nothing (responses still carry `Audit-Id`). */
  readonly auditor?: Auditor;
  /** API Priority and Fairness (the APIPriorityAndFairness gate); undefined: no flow control. */
  readonly flowController?: FlowController;
  /** The service account issuer discovery documents, given this server's `host:port`; undefined serves none. */
  readonly issuerDiscovery?: (serverAddress: string) => IssuerDiscovery | undefined;
  /** The metrics, served at `/metrics` and filled with the request metrics; undefined serves and counts none. */
  readonly metrics?: MetricsRegistry;
  /** Whether a resource request names a resource served here (the request metrics count only those). */
  readonly servedResource?: (info: RequestInfo) => boolean;
}

/** A running HTTP side. */
export interface ApiServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfigPath: string;
  /** CA certificate (PEM). */
  readonly ca: string;
  /** Admin client certificate and key (PEM). */
  readonly adminCert: string;
  readonly adminKey: string;
  /** True once shutdown began (readyz fails). */
  readonly shuttingDown: boolean;
  /** Resolves once every readyz check passes (post-start hooks done, caches synced); rejects if shutdown begins first. */
  ready(): Promise<void>;
  /** readyz fails, after the shutdown delay the listener closes, in-flight requests finish, watches end. */
  close(): Promise<void>;
}

/** The host clients use: the bind address, or loopback for a wildcard bind; IPv6 in brackets. */
export function clientHost(bindAddress: string): string {
  const host = bindAddress === '0.0.0.0' || bindAddress === '' ? '127.0.0.1' : bindAddress === '::' ? '::1' : bindAddress;
  return isIPv6(host) ? `[${host}]` : host;
}

/** Starts the HTTP side. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { names, log } = options;
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pki = options.pki ?? await ensurePki({
    dir: dataDir,
    sans: servingSans(options.bindAddress, options.tlsSans),
    caName: pkiCaName(names),
  });

  let shuttingDown = false;
  const startedAt = Date.now();
  const graceUntil = startedAt + options.livezGracePeriodMs;
  // One check per name (several probes may answer as one of kube's checks), listed in kube-apiserver's order.
  const common = inKubeOrder(mergeChecks([pingCheck, logCheck(), ...options.checks]));
  const readyChecks = inKubeOrder(mergeChecks([...common, ...options.readyChecks, shutdownCheck(() => shuttingDown)]));
  const endpoints = [
    healthEndpoint('livez', common.map((c) => (c === pingCheck ? c : withGracePeriod(c, graceUntil))), log),
    healthEndpoint('readyz', readyChecks, log),
    healthEndpoint('healthz', common, log),
  ];

  let port = options.port;
  const router = nonResourceRouter({
    names,
    resources: options.resources,
    ...(options.openapi ? { openapi: options.openapi } : {}),
    health: endpoints,
    serverAddress: () => `${clientHost(options.bindAddress)}:${port}`,
    ...(options.issuerDiscovery === undefined ? {} : { issuerDiscovery: () => options.issuerDiscovery?.(`${clientHost(options.bindAddress)}:${port}`) }),
    ...(options.aggregator !== undefined ? { remoteGroups: () => options.aggregator!.remoteGroups() } : {}),
    ...(options.metrics !== undefined ? { metrics: options.metrics } : {}),
  });
  const metered = options.metrics === undefined ? undefined : requestMetrics({
    served: options.servedResource ?? (() => false), metrics: endpointMetrics(options.metrics),
  });
  const authn = options.authentication?.(pki.ca.certPem);
  const authorizer = options.authorizer ?? authorizerUnion([alwaysAllow()]);
  // Requests wait for the chain on the urgent lane, admitted work on the deferred one: under saturation the excess
  // is refused, and exempt requests served, ahead of the admitted work (see turn-scheduler.ts).
  const lanes = createTurnLanes();
  const handler = buildChain(
    [
      auditId(),
      panicRecovery(log),
      requestInfoFilter(),
      ...(options.logger === undefined ? [] : [httpLog(options.logger)]),
      cacheControl(),
      requestTimeout(options.requestTimeoutMs ?? 60_000, log, metered?.terminated),
      bodyLimit(options.maxRequestBodyBytes),
      failedAuthenticationAudit(options.auditor),
      authentication(authn?.authenticator ?? authenticatorUnion([x509Authenticator([pki.ca.certPem])]), {
        anonymous: authn?.anonymous ?? true, ...(authn?.stripHeaders ? { stripHeaders: authn.stripHeaders } : {}), log: (m) => log(m),
      }),
      audit(options.auditor),
      impersonation(authorizer, names),
      options.flowController !== undefined
        ? priorityAndFairness(options.flowController, metered?.dropped, lanes.deferred)
        : maxInFlight({
          maxRequestsInFlight: options.maxRequestsInFlight ?? defaultMaxRequestsInFlight,
          maxMutatingRequestsInFlight: options.maxMutatingRequestsInFlight ?? defaultMaxMutatingRequestsInFlight,
          ...(metered === undefined ? {} : { onDropped: metered.dropped }),
          scheduler: lanes.deferred,
        }).filter,
      authorization(authorizer),
      ...(metered === undefined ? [] : [metered.filter]),
    ],
    async (ctx) => {
      if (options.aggregator !== undefined && (await options.aggregator.handle(ctx))) return;
      return ctx.info.isResourceRequest ? options.resourceHandler(ctx) : router(ctx);
    },
  );

  const https = await startHttpsServer({
    host: options.bindAddress,
    port: options.port,
    certPem: pki.serving.certPem,
    keyPem: pki.serving.keyPem,
    clientCaPem: authn?.clientCas.pem() ?? pki.ca.certPem,
    names,
    maxRequestBodyBytes: options.maxRequestBodyBytes,
    handler,
    log,
    scheduler: lanes.urgent,
    ...(options.printerFor !== undefined ? { printerFor: options.printerFor } : {}),
  });
  port = https.port;
  // A reloaded client CA file changes which certificates clients are asked for.
  authn?.clientCas.onChange(() => https.setClientCas(authn.clientCas.pem()));
  const url = `https://${clientHost(options.bindAddress)}:${port}`;
  const kubeconfigPath = join(dataDir, adminKubeconfigFile);
  await writeFileAtomic(kubeconfigPath, kubeconfigYaml({
    server: url,
    caPem: pki.ca.certPem,
    clientCertPem: pki.admin.certPem,
    clientKeyPem: pki.admin.keyPem,
    name: names.name('serverName'),
  }), 0o600);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    dataDir,
    kubeconfigPath,
    ca: pki.ca.certPem,
    adminCert: pki.admin.certPem,
    adminKey: pki.admin.keyPem,
    get shuttingDown() {
      return shuttingDown;
    },
    async ready() {
      // The readyz checks themselves, unlogged: a failing check here is expected while the server comes up.
      for (;;) {
        if (shuttingDown) throw new Error('the server is shutting down');
        const reasons = await Promise.all(readyChecks.map((c) => c.check().catch((e: unknown) => String(e))));
        if (reasons.every((r) => r === undefined)) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        if (options.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, options.shutdownDelayMs));
        await https.close();
      })();
      return closing;
    },
  };
}
