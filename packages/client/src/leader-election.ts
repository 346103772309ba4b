/**
 * Leader election on a Lease (client-go's leaderelection with a LeaseLock): candidates try to acquire or renew the
 * Lease every `retryPeriodMs`; the holder leads while it renews within `renewDeadlineMs`; another candidate takes
 * over once it has seen the same Lease record unchanged for `leaseDurationSeconds` (measured on its own clock, so
 * clocks need not agree). Writes are compare-and-swap on resourceVersion, so two candidates never both win a round.
 * Taking over increments `leaseTransitions`; stopping with `releaseOnCancel` empties the holder so the next
 * candidate need not wait out the lease.
 */
import { failure, fail, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import type { RestClient } from './rest-client.js';
import type { RestMapper } from './rest-mapper.js';
import { refOf } from './rest-mapper.js';
import type { ResourceRef } from './paths.js';
import { sleep } from './sleep.js';

/** A Lease as leader election reads and writes it. */
export interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** Options of a leader election. */
export interface LeaderElectionOptions {
  /** The Lease resource (through `mapper` when absent: whichever `leases` resource the server serves). */
  readonly leaseRef?: ResourceRef;
  readonly mapper?: RestMapper;
  readonly namespace: string;
  readonly name: string;
  /** This candidate's unique identity (host name plus a random suffix, typically). */
  readonly identity: string;
  /** Default 15, as kube-controller-manager's. */
  readonly leaseDurationSeconds?: number;
  /** Default 10 000. */
  readonly renewDeadlineMs?: number;
  /** Default 2 000. */
  readonly retryPeriodMs?: number;
  /** Empty the holder when stopped while leading. */
  readonly releaseOnCancel?: boolean;
  /** Runs when this candidate starts leading; `signal` aborts when it stops leading. */
  readonly onStartedLeading: (signal: AbortSignal) => void;
  /** Runs when this candidate stops leading (lost the lease or stopped). */
  readonly onStoppedLeading?: () => void;
  /** Runs when another (or this) identity is seen holding the lease. */
  readonly onNewLeader?: (identity: string) => void;
  readonly signal?: AbortSignal;
}

/** A running election. */
export interface LeaderElection {
  isLeader(): boolean;
  /** The holder last observed. */
  leader(): string | undefined;
  /** Stops campaigning (and leading); resolves when done. */
  stop(): Promise<void>;
  /** Resolves when the election ends (stopped, or the lease was lost); fails when the Lease resource is unknown. */
  readonly done: Promise<Result<undefined>>;
}

/** A Lease's MicroTime: RFC 3339 with microseconds. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Starts campaigning. Losing the lease after leading ends the election, as client-go's `Run` returns. */
export function runLeaderElection(client: RestClient, options: LeaderElectionOptions): LeaderElection {
  const duration = options.leaseDurationSeconds ?? 15;
  const renewDeadline = options.renewDeadlineMs ?? 10_000;
  const retryPeriod = options.retryPeriodMs ?? 2_000;
  const stopper = new AbortController();
  if (options.signal) options.signal.addEventListener('abort', () => stopper.abort(), { once: true });
  let leading: AbortController | undefined;
  let observed: { rv: string; holder: string; at: number } | undefined;
  let lastLeader: string | undefined;
  let latest: Lease | undefined;

  async function leaseRef(): Promise<Result<ResourceRef>> {
    if (options.leaseRef) return ok({ ...options.leaseRef, namespace: options.namespace });
    if (!options.mapper) return fail(failure('BadRequest', 'leader election needs a leaseRef or a RESTMapper', undefined, 0));
    const r = await options.mapper.resourceFor('leases');
    return r.ok ? ok(refOf(r.value, options.namespace)) : r;
  }

  /** One round of client-go's tryAcquireOrRenew; true when this candidate holds the lease afterwards. */
  async function tryAcquireOrRenew(ref: ResourceRef): Promise<boolean> {
    const now = Date.now();
    const got = await client.get<Lease>(ref, options.name);
    if (!got.ok && got.error.code !== 404) return false;
    if (!got.ok) {
      const created = await client.create<Lease>(ref, {
        apiVersion: ref.group ? `${ref.group}/${ref.version}` : ref.version,
        kind: 'Lease',
        metadata: { name: options.name, namespace: options.namespace },
        spec: { holderIdentity: options.identity, leaseDurationSeconds: duration, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 },
      });
      if (!created.ok) return false;
      latest = created.value;
      observe(created.value, now);
      return true;
    }
    const lease = got.value;
    observe(lease, now);
    const holder = lease.spec?.holderIdentity ?? '';
    const held = holder !== '' && holder !== options.identity;
    const expired = observed !== undefined && observed.at + (lease.spec?.leaseDurationSeconds ?? duration) * 1000 <= now;
    if (held && !expired) return false;
    const spec = lease.spec ?? {};
    const mine = holder === options.identity;
    const updated = await client.update<Lease>(ref, {
      ...lease,
      spec: {
        ...spec,
        holderIdentity: options.identity,
        leaseDurationSeconds: duration,
        renewTime: microTime(now),
        acquireTime: mine && spec.acquireTime ? spec.acquireTime : microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (mine || holder === '' ? 0 : 1),
      },
    });
    if (!updated.ok) return false;
    latest = updated.value;
    observe(updated.value, now);
    return true;
  }

  function observe(lease: Lease, now: number): void {
    const rv = lease.metadata?.resourceVersion ?? '';
    const holder = lease.spec?.holderIdentity ?? '';
    if (observed?.rv !== rv) observed = { rv, holder, at: now };
    if (holder !== '' && holder !== lastLeader) {
      lastLeader = holder;
      options.onNewLeader?.(holder);
    }
  }

  async function release(ref: ResourceRef): Promise<void> {
    if (!latest || latest.spec?.holderIdentity !== options.identity) return;
    const now = Date.now();
    await client.update<Lease>(ref, {
      ...latest,
      spec: { ...latest.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(now), acquireTime: microTime(now) },
    });
  }

  async function run(): Promise<Result<undefined>> {
    const ref = await leaseRef();
    if (!ref.ok) return ref;
    while (!stopper.signal.aborted) {
      if (await tryAcquireOrRenew(ref.value)) break;
      await sleep(retryPeriod * (1 + Math.random() * 0.2), stopper.signal);
    }
    if (stopper.signal.aborted) return ok();
    leading = new AbortController();
    options.onStartedLeading(leading.signal);
    let lastRenew = Date.now();
    while (!stopper.signal.aborted) {
      await sleep(retryPeriod, stopper.signal);
      if (stopper.signal.aborted) break;
      if (await tryAcquireOrRenew(ref.value)) lastRenew = Date.now();
      else if (Date.now() - lastRenew > renewDeadline) break;
    }
    if (stopper.signal.aborted && options.releaseOnCancel) await release(ref.value);
    leading.abort();
    leading = undefined;
    options.onStoppedLeading?.();
    return ok();
  }

  const done = run();
  return {
    isLeader: () => leading !== undefined,
    leader: () => lastLeader,
    async stop() {
      stopper.abort();
      await done;
    },
    done,
  };
}
