/**
 * kube-apiserver's `start-kube-apiserver-identity-lease-garbage-collector` (and its deprecated-label twin,
 * `start-deprecated-kube-apiserver-identity-lease-garbage-collector`): every hour each replica lists the Leases of
 * the system namespace with the identity label and deletes those expired (renew time plus duration in the past),
 * reading each again before its delete and deleting at the resourceVersion it judged, so a Lease renewed meanwhile
 * stays. Its checks pass at once, as kube's hooks return once the collector started.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../../health/health-check.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import type { Registry } from '../../registry/registry.js';
import { parseSelection } from '../../registry/selection.js';
import type { Clock } from '../kit/clock.js';
import { realClock } from '../kit/clock.js';
import { identityLabel } from './identity-lease.js';

/** kube's IdentityLeaseGCPeriod. */
export const identityLeaseGcPeriodMs = 3_600_000;

/** Options of {@link startIdentityLeaseGc}. */
export interface IdentityLeaseGcOptions {
  readonly registry: Registry;
  readonly names: Names;
  readonly periodMs?: number;
  readonly clock?: Clock;
  readonly log?: (message: string) => void;
}

/** The running collectors. */
export interface IdentityLeaseGc {
  readonly checks: HealthCheck[];
  /** Runs one collection now; the names of the Leases deleted. */
  collect(): Promise<string[]>;
  stop(): void;
}

/** kube's isLeaseExpired. */
export function leaseExpired(lease: KubeObject, now: number): boolean {
  const spec = (lease['spec'] as { renewTime?: string; leaseDurationSeconds?: number } | undefined) ?? {};
  if (spec.renewTime === undefined || spec.leaseDurationSeconds === undefined) return false;
  return now > Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000;
}

/** Starts both collectors (the identity label and kube's deprecated `k8s.io/component` label). */
export function startIdentityLeaseGc(options: IdentityLeaseGcOptions): IdentityLeaseGc {
  const { registry, names, log = () => {} } = options;
  const clock = options.clock ?? realClock;
  const periodMs = options.periodMs ?? identityLeaseGcPeriodMs;
  const namespace = names.name('systemNamespace');
  const selectors = [`${identityLabel(names)}=${names.name('serverName')}`, `k8s.io/component=${names.name('serverName')}`];
  let stopped = false;
  let cancel: () => void = () => {};

  const collect = async (): Promise<string[]> => {
    const def = registry.lookup(names.group('coordination'), 'v1', 'leases');
    if (def === undefined) return [];
    const deleted: string[] = [];
    for (const selector of selectors) {
      const selection = parseSelection(def, selector, null);
      if (!selection.ok) continue;
      const listed = await registry.store.list(def, { namespace, selection: selection.value });
      if (!listed.ok) {
        log(`error listing API server identity leases: ${listed.error.message ?? ''}`);
        continue;
      }
      for (const lease of listed.value.items) {
        if (!leaseExpired(lease, clock.now())) continue;
        const name = lease.metadata?.name ?? '';
        // Read again: another replica may have renewed or removed it since the list.
        const current = await registry.store.get(def, namespace, name);
        if (!current.ok || !leaseExpired(current.value, clock.now())) continue;
        const rv = current.value.metadata?.resourceVersion;
        const removed = await deleteObject(registry, def, namespace, name, loopbackContext(registry.names, 'apiserver'),
          rv === undefined ? undefined : { resourceVersion: rv });
        if (removed.ok) deleted.push(name);
        else if (removed.error.code !== 404 && removed.error.code !== 409) log(`error deleting lease ${namespace}/${name}: ${removed.error.message ?? ''}`);
      }
    }
    return deleted;
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    try {
      await collect();
    } catch (error) {
      log(`API server identity lease garbage collection failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) cancel = clock.at(clock.now() + periodMs, () => void tick());
  };
  cancel = clock.at(clock.now() + periodMs, () => void tick());

  const started: HealthCheck['check'] = async () => undefined;
  return {
    checks: [
      { name: 'poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector', check: started },
      { name: 'poststarthook/start-kube-apiserver-identity-lease-garbage-collector', check: started },
    ],
    collect,
    stop() {
      stopped = true;
      cancel();
    },
  };
}
