/**
 * Leader election on a `coordination/v1` Lease, as client-go's leaderelection package runs it for
 * kube-controller-manager `--leader-elect`: a candidate takes the Lease when it is absent, released, or not renewed
 * for `leaseDuration` as measured on the candidate's own clock (the time it last saw the record change, not the
 * holder's timestamps, so clock skew between replicas does not matter); the leader renews every `retryPeriod` and
 * gives up leadership when it could not renew for `renewDeadline`. Every write is a compare-and-swap on the
 * Lease's resourceVersion, so two replicas never both win. On stop a leader releases the Lease (client-go's
 * ReleaseOnCancel) so another replica takes over at once. Unlike kube-controller-manager, which exits when it loses
 * the Lease, a replica here stops its controllers and becomes a candidate again.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import { createObject } from '../registry/operations/create-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import { loopbackContext } from '../registry/operations/loopback.js';

/** Options of {@link startLeaderElection}. */
export interface LeaderElectionOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** The Lease's name (in the system namespace). */
  readonly leaseName: string;
  /** This candidate's identity (default `<hostname>_<uuid>`, as kube's). */
  readonly identity?: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** Called when this replica becomes the leader. */
  onStartedLeading(): void | Promise<void>;
  /** Called when it stops being the leader (lost the Lease or stopping); awaited before the Lease is released. */
  onStoppedLeading(): void | Promise<void>;
  readonly log?: (message: string) => void;
  /** Clock (default `Date.now`). */
  readonly now?: () => number;
}

/** A running election. */
export interface LeaderElection {
  readonly identity: string;
  isLeader(): boolean;
  /** Healthy unless this leader failed to renew past its deadline and has not recovered (kube's leaderelection check). */
  readonly check: HealthCheck;
  /** Stops campaigning; a leader stops leading and releases the Lease. */
  stop(): Promise<void>;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** A MicroTime (RFC 3339 with microseconds), the form of Lease timestamps. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const specOf = (lease: KubeObject): LeaseSpec => (lease['spec'] as LeaseSpec | undefined) ?? {};

/** Starts campaigning for the Lease. */
export function startLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const { registry, names } = options;
  const now = options.now ?? Date.now;
  const identity = options.identity ?? `${hostname()}_${randomUUID()}`;
  const namespace = names.name('systemNamespace');
  const group = names.group('coordination');
  const log = options.log ?? (() => {});
  let leader = false;
  let stopped = false;
  /** The last record seen, and when (on this clock) it last changed. */
  let observed: { key: string; at: number } | undefined;
  let lastRenew = 0;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => {};

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });

  /** One attempt (client-go's tryAcquireOrRenew); true when this replica holds the Lease afterwards. */
  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const def = registry.lookup(group, 'v1', 'leases');
    if (def === undefined) throw new Error('the leases resource is not served');
    const t = now();
    const got = await registry.store.get(def, namespace, options.leaseName);
    const fresh = (previous?: LeaseSpec): LeaseSpec => ({
      holderIdentity: identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(options.leaseDurationMs / 1000)),
      acquireTime: previous?.holderIdentity === identity && previous.acquireTime !== undefined ? previous.acquireTime : microTime(t),
      renewTime: microTime(t),
      leaseTransitions: previous === undefined ? 0 : (previous.leaseTransitions ?? 0) + (previous.holderIdentity === identity ? 0 : 1),
    });
    if (!got.ok) {
      if (got.error.code !== 404) throw new Error(got.error.message ?? 'cannot read the lease');
      const created = await createObject(registry, def, {
        apiVersion: `${group}/v1`, kind: 'Lease', metadata: { name: options.leaseName, namespace }, spec: fresh(),
      }, loopbackContext(registry.names, 'controller-manager'));
      if (!created.ok) return false;
      observed = { key: created.value.metadata?.resourceVersion ?? '', at: t };
      return true;
    }
    const current = got.value;
    const spec = specOf(current);
    const key = current.metadata?.resourceVersion ?? '';
    if (observed?.key !== key) observed = { key, at: t };
    const held = (spec.holderIdentity ?? '') !== '' && spec.holderIdentity !== identity;
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    if (held && observed.at + durationMs > t) return false;
    const updated = await updateObject(registry, def, '', { ...current, spec: fresh(spec) }, current, loopbackContext(registry.names, 'controller-manager'));
    if (!updated.ok) return false;
    observed = { key: updated.value.metadata?.resourceVersion ?? '', at: t };
    return true;
  };

  const attempt = async (): Promise<boolean> => {
    try {
      return await tryAcquireOrRenew();
    } catch (error) {
      log(`leader election: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };

  const jittered = (): number => options.retryPeriodMs * (1 + Math.random() * 0.2);

  const loop = (async () => {
    while (!stopped) {
      // Candidate: try every retry period until the Lease is ours.
      if (!(await attempt())) {
        await sleep(jittered());
        continue;
      }
      if (stopped) break;
      leader = true;
      lastRenew = now();
      log(`leader election: ${identity} became the leader`);
      try {
        await options.onStartedLeading();
      } catch (error) {
        log(`leader election: starting to lead failed: ${String(error)}`);
      }
      // Leader: renew every retry period; give up after the renew deadline without a successful renewal.
      while (!stopped) {
        await sleep(options.retryPeriodMs);
        if (stopped) break;
        if (await attempt()) {
          lastRenew = now();
          continue;
        }
        if (now() - lastRenew >= options.renewDeadlineMs) {
          log(`leader election: ${identity} lost the lease (no renewal within the deadline)`);
          break;
        }
      }
      leader = false;
      try {
        await options.onStoppedLeading();
      } catch (error) {
        log(`leader election: stopping to lead failed: ${String(error)}`);
      }
    }
  })();

  /** Gives the Lease up so another replica need not wait for it to expire. */
  const release = async (): Promise<void> => {
    const def = registry.lookup(group, 'v1', 'leases');
    if (def === undefined) return;
    const got = await registry.store.get(def, namespace, options.leaseName);
    if (!got.ok || specOf(got.value).holderIdentity !== identity) return;
    const t = microTime(now());
    await updateObject(registry, def, '', {
      ...got.value,
      spec: { ...specOf(got.value), holderIdentity: '', leaseDurationSeconds: 1, renewTime: t, acquireTime: t },
    }, got.value, loopbackContext(registry.names, 'controller-manager'));
  };

  return {
    identity,
    isLeader: () => leader,
    check: {
      name: 'leaderElection',
      // As kube's: unhealthy only when this replica believes it leads but has not renewed for a while.
      check: async () => (leader && now() - lastRenew > options.leaseDurationMs + options.renewDeadlineMs ? 'the leader has not renewed its lease' : undefined),
    },
    async stop() {
      const wasLeader = leader;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      wake();
      await loop;
      if (wasLeader) {
        try {
          await release();
        } catch (error) {
          log(`leader election: releasing the lease failed: ${String(error)}`);
        }
      }
    },
  };
}
