/**
 * kube-apiserver's `start-kube-apiserver-identity-lease-controller` post-start hook (component-helpers' lease
 * controller with the identity label): the Lease `<apiserver id>` in the system namespace, labelled
 * `apiserver.svc.io/identity=<server name>` and with the host name, held by `<id>_<uuid>`, lasting 3600 s and
 * renewed every 10 s. As kube's controller, it creates the Lease when it is missing, else renews the one there
 * (its holder stays whoever created it), with a backoff after failures. Its check passes once the Lease was
 * written once.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../../health/health-check.js';
import { createObject } from '../../registry/operations/create-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import type { Registry } from '../../registry/registry.js';
import type { Clock } from '../kit/clock.js';
import { realClock } from '../kit/clock.js';
import { apiServerId } from './apiserver-id.js';

/** kube's IdentityLeaseDurationSeconds. */
export const identityLeaseDurationSeconds = 3600;
/** kube's IdentityLeaseRenewIntervalPeriod. */
export const identityLeaseRenewIntervalMs = 10_000;

/** The identity label of the Leases (`apiserver.kubernetes.io/identity` in kube). */
export function identityLabel(names: Names): string {
  return names.domain('identity', 'apiserver');
}

/** A MicroTime (RFC 3339 with microseconds), the form of Lease timestamps. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Options of {@link startIdentityLease}. */
export interface IdentityLeaseOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** The host name (default os.hostname()). */
  readonly host?: string;
  readonly renewIntervalMs?: number;
  readonly clock?: Clock;
  readonly log?: (message: string) => void;
  /**
   * The first write waits for this (the system namespaces' creation): before it the Lease's namespace may not exist
   * yet, and a first write refused for that would hold readiness for the whole first backoff.
   */
  readonly after?: Promise<unknown>;
}

/** The running controller. */
export interface IdentityLease {
  /** The Lease's name: this server's identity. */
  readonly id: string;
  readonly holderIdentity: string;
  readonly checks: HealthCheck[];
  stop(): void;
}

/** Starts the identity Lease controller. */
export function startIdentityLease(options: IdentityLeaseOptions): IdentityLease {
  const { registry, names, log = () => {} } = options;
  const clock = options.clock ?? realClock;
  const host = options.host ?? hostname();
  const id = apiServerId(host, names.name('serverName'));
  const holderIdentity = `${id}_${randomUUID()}`;
  const namespace = names.name('systemNamespace');
  const renewMs = options.renewIntervalMs ?? identityLeaseRenewIntervalMs;
  const labels = { [identityLabel(names)]: names.name('serverName'), [names.domain('hostname')]: host };
  let written = false;
  let lastError = 'not written yet';
  let stopped = false;
  let cancel: () => void = () => {};
  let failures = 0;

  /** kube's newLease with labelAPIServerHeartbeatFunc: renew time now, the labels set. */
  const renewed = (base: KubeObject | undefined): KubeObject => {
    const lease: KubeObject = base === undefined
      ? {
        apiVersion: `${names.group('coordination')}/v1`, kind: 'Lease', metadata: { name: id, namespace },
        spec: { holderIdentity, leaseDurationSeconds: identityLeaseDurationSeconds },
      }
      : structuredClone(base);
    lease['spec'] = { ...(lease['spec'] as Record<string, unknown>), renewTime: microTime(clock.now()) };
    lease.metadata = { ...lease.metadata, labels: { ...lease.metadata?.labels, ...labels } };
    return lease;
  };

  const sync = async (): Promise<string | undefined> => {
    const def = registry.lookup(names.group('coordination'), 'v1', 'leases');
    if (def === undefined) return undefined;
    const ctx = loopbackContext(registry.names, 'apiserver');
    const got = await registry.store.get(def, namespace, id);
    if (!got.ok) {
      if (got.error.code !== 404) return got.error.message ?? 'failed to read the lease';
      const created = await createObject(registry, def, renewed(undefined), ctx);
      return created.ok ? undefined : created.error.message ?? 'failed to create the lease';
    }
    const updated = await updateObject(registry, def, '', renewed(got.value), got.value, ctx);
    return updated.ok ? undefined : updated.error.message ?? 'failed to update the lease';
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    let error: string | undefined;
    try {
      error = await sync();
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (error === undefined) {
      written = true;
      failures = 0;
    } else {
      lastError = error;
      failures++;
      log(`failed to renew the API server identity lease ${namespace}/${id}: ${error}`);
    }
    if (stopped) return;
    // kube's backoff after failures: 200 ms doubling, at most the renew interval.
    const wait = error === undefined ? renewMs : Math.min(renewMs, 200 * 2 ** Math.min(failures - 1, 10));
    cancel = clock.at(clock.now() + wait, () => void tick());
  };
  if (options.after === undefined) void tick();
  else void options.after.then(() => tick(), () => tick());

  return {
    id,
    holderIdentity,
    checks: [{ name: 'poststarthook/start-kube-apiserver-identity-lease-controller', check: async () => (written ? undefined : lastError) }],
    stop() {
      stopped = true;
      cancel();
    },
  };
}
