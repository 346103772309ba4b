/**
 * kube-apiserver's bootstrap controller for the `kubernetes` Service (its `bootstrap-controller` post-start hook,
 * pkg/controlplane/controller.go), on every replica: at start it drops a lease this address left behind (a replica
 * that did not shut down cleanly), then every reconcile interval (10 s) it makes sure `default` exists, creates
 * the Service `default/kubernetes` when it is missing (cluster IP the first address of the service range, through
 * the Service allocator like any Service; port `https` 443 to the secure port; labels `provider=kubernetes`,
 * `component=apiserver`; no selector) and reconciles its Endpoints and EndpointSlice through the master leases.
 * The first pass also puts the Service's ports and type back when they were changed, and the Endpoints' ports:
 * kube corrects those only at start. A failed pass is logged and tried again at the next interval (a Service
 * holding the first address of the range keeps the `kubernetes` Service from being created, as in kube). On
 * shutdown the replica removes its lease and its address.
 */
import { fail, internalError, ok, type KubeObject, type Names, type Result } from '@svc-apiserver/api';
import type { HealthCheck } from '../../health/health-check.js';
import { createObject } from '../../registry/operations/create-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import type { Registry } from '../../registry/registry.js';
import { ensureNamespace } from '../system-namespaces.js';
import { endpointReconciler, type EndpointPort } from './endpoint-reconciler.js';
import { masterLeases } from './master-leases.js';

/** The Service's name. */
export const kubernetesServiceName = 'kubernetes';

/** Options of {@link startKubernetesService}. */
export interface KubernetesServiceOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** The Service's cluster IP: the first address of `--service-cluster-ip-range`. */
  readonly serviceIp: string;
  /** The port this replica serves on (the Service's target port and the Endpoints' port). */
  readonly publicPort: number;
  /** `--advertise-address`: this replica's address in the Endpoints. */
  readonly advertiseAddress: string;
  /** kube's `--apiserver-count`-era endpoint reconcile interval (10 s). */
  readonly intervalMs?: number;
  /** The master lease time (15 s). */
  readonly leaseTtlMs?: number;
  readonly log?: (message: string) => void;
}

/** The running controller. */
export interface KubernetesService {
  /**
   * `poststarthook/bootstrap-controller`: fails until the first pass has run (as kube's hook passes once the
   * controller started); a pass that failed is logged and tried again every interval.
   */
  readonly checks: HealthCheck[];
  /** Runs one pass now (tests); `reconcile` also repairs ports and type. */
  sync(reconcile: boolean): Promise<Result<void>>;
  /** Stops the passes and removes this replica's address (waiting at most two intervals). */
  stop(): Promise<void>;
}


interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

/** Starts the controller. */
export function startKubernetesService(options: KubernetesServiceOptions): KubernetesService {
  const { registry, names, log = () => {} } = options;
  const intervalMs = options.intervalMs ?? 10_000;
  const leases = masterLeases(registry.store.backend, options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs });
  const reconciler = endpointReconciler(registry, names, leases, kubernetesServiceName);
  const servicePorts: ServicePort[] = [{ name: 'https', protocol: 'TCP', port: 443, targetPort: options.publicPort }];
  const endpointPorts: EndpointPort[] = [{ name: 'https', port: options.publicPort, protocol: 'TCP' }];

  /** kube's checkServiceFormat: the type is ClusterIP and the ports are exactly ours. */
  const formatCorrect = (service: KubeObject): boolean => {
    const spec = (service['spec'] as { type?: string; ports?: ServicePort[] } | undefined) ?? {};
    const ports = spec.ports ?? [];
    return spec.type === 'ClusterIP' && ports.length === servicePorts.length && ports.every((p, i) => {
      const want = servicePorts[i]!;
      return p.name === want.name && p.protocol === want.protocol && p.port === want.port && p.targetPort === want.targetPort
        && p.nodePort === undefined && p.appProtocol === undefined;
    });
  };

  /** kube's CreateOrUpdateMasterServiceIfNeeded. */
  const ensureService = async (reconcile: boolean): Promise<Result<void>> => {
    const def = registry.lookup('', 'v1', 'services');
    if (def === undefined) return ok(undefined);
    for (let attempt = 0; attempt < 2; attempt++) {
      const got = await registry.store.get(def, 'default', kubernetesServiceName);
      if (got.ok) {
        if (!reconcile || formatCorrect(got.value)) return ok(undefined);
        log(`Resetting master service "${kubernetesServiceName}" to its ports and type`);
        const spec = { ...(got.value['spec'] as Record<string, unknown>), ports: servicePorts, type: 'ClusterIP' };
        const updated = await updateObject(registry, def, '', { ...got.value, spec }, got.value, loopbackContext(registry.names, 'apiserver'));
        return updated.ok ? ok(undefined) : fail(updated.error);
      }
      if (got.error.code !== 404) return got;
      const created = await createObject(registry, def, {
        apiVersion: 'v1', kind: 'Service',
        metadata: { name: kubernetesServiceName, namespace: 'default', labels: { provider: 'kubernetes', component: 'apiserver' } },
        spec: { ports: servicePorts, clusterIP: options.serviceIp, ipFamilyPolicy: 'SingleStack', sessionAffinity: 'None', type: 'ClusterIP' },
      }, loopbackContext(registry.names, 'apiserver'));
      if (created.ok) return ok(undefined);
      // Another replica created it meanwhile: read it again (and reconcile it).
      if (created.error.reason !== 'AlreadyExists') return created;
    }
    return ok(undefined);
  };

  /** kube's UpdateKubernetesService. */
  const sync = async (reconcile: boolean): Promise<Result<void>> => {
    const nsFailed = await ensureNamespace(registry, 'default');
    if (nsFailed !== undefined) return fail(internalError(nsFailed));
    const service = await ensureService(reconcile);
    if (!service.ok) return service;
    return reconciler.reconcileEndpoints(options.advertiseAddress, endpointPorts, reconcile);
  };

  let stopped = false;
  let firstDone = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => {};
  const pause = (ms: number): Promise<void> => new Promise((resolve) => {
    // stop() may have come while a pass ran: nothing to wait for then.
    if (stopped) return resolve();
    wake = resolve;
    timer = setTimeout(resolve, ms);
  });
  const attempt = async (reconcile: boolean): Promise<boolean> => {
    try {
      const done = await sync(reconcile);
      if (done.ok) return true;
      log(`unable to sync kubernetes service: ${done.error.message ?? done.error.reason ?? 'failed'}`);
    } catch (error) {
      log(`unable to sync kubernetes service: ${error instanceof Error ? error.message : String(error)}`);
    }
    return false;
  };
  const loop = (async () => {
    // A lease of this address is left from a run that did not end cleanly: kube drops it before the first pass.
    try {
      const removed = await reconciler.removeEndpoints(options.advertiseAddress, endpointPorts);
      if (removed.ok && removed.value) log('Found stale data, removed previous endpoints on kubernetes service, apiserver didn\'t exit successfully previously');
    } catch (error) {
      log(`Error removing old endpoints from kubernetes service: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The first pass also repairs ports and type; until one such pass succeeds, every pass does.
    let repaired = false;
    while (!stopped) {
      const done = await attempt(!repaired);
      repaired ||= done;
      firstDone = true;
      await pause(intervalMs);
    }
  })();

  return {
    checks: [{ name: 'poststarthook/bootstrap-controller', check: async () => (firstDone ? undefined : 'not finished') }],
    sync,
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      wake();
      await loop;
      // kube's Stop: the address goes at once rather than when the lease expires; a lost store must not hold the
      // shutdown for more than two intervals.
      let limit: NodeJS.Timeout | undefined;
      await Promise.race([
        reconciler.removeEndpoints(options.advertiseAddress, endpointPorts).then(
          (r) => (r.ok ? undefined : log(`Unable to remove endpoints from kubernetes service: ${r.error.message ?? ''}`)),
          (error: unknown) => log(`Unable to remove endpoints from kubernetes service: ${error instanceof Error ? error.message : String(error)}`),
        ),
        new Promise<void>((resolve) => {
          limit = setTimeout(() => {
            log('RemoveEndpoints() timed out');
            resolve();
          }, 2 * intervalMs);
        }),
      ]);
      clearTimeout(limit);
    },
  };
}
