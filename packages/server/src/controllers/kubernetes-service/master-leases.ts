/**
 * The API servers' leases for the `kubernetes` Service's endpoints (kube's storageLeases under
 * `/registry/masterleases/<ip>`, kept for `--endpoint-reconciler-type=lease`): each replica refreshes the key of
 * its advertise address every reconcile interval; a key nobody refreshed for the lease time (15 s) belongs to a
 * replica that stopped. kube sets an etcd TTL on the key; the store here has no TTL, so a key's age is measured as
 * client-go's leader election measures a Lease's: from when this replica last saw the key change (its mod
 * revision), on its own clock, so clocks of replicas need not agree. A key found expired is deleted by whichever
 * replica finds it (a compare-and-swap on the revision it judged, so a refresh meanwhile wins), as etcd would have
 * dropped it. The value is kube's: an Endpoints object with the one address.
 */
import type { Backend } from '../../storage/backend.js';

/** kube's default `--endpoint-reconciler-type=lease` lease time (DefaultEndpointReconcilerTTL). */
export const masterLeaseTtlMs = 15_000;

/** Where the leases live, as in kube's storage. */
export const masterLeasesPrefix = '/registry/masterleases/';

/** The leases of the API servers. */
export interface MasterLeases {
  /** The addresses whose lease is live, sorted. */
  listLeases(): Promise<string[]>;
  /** Adds or refreshes the lease of `ip`. */
  updateLease(ip: string): Promise<void>;
  /** Removes the lease of `ip`; false when there was none. */
  removeLease(ip: string): Promise<boolean>;
}

/** Options of {@link masterLeases}. */
export interface MasterLeasesOptions {
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** The leases in `backend`. */
export function masterLeases(backend: Backend, options: MasterLeasesOptions = {}): MasterLeases {
  const ttlMs = options.ttlMs ?? masterLeaseTtlMs;
  const now = options.now ?? Date.now;
  /** Per key, the mod revision last seen and when (on this clock) it was first seen. */
  const observed = new Map<string, { modRevision: number; at: number }>();
  const keyOf = (ip: string): string => `${masterLeasesPrefix}${ip}`;
  const value = (ip: string, generation: number): string => JSON.stringify({
    kind: 'Endpoints', apiVersion: 'v1', metadata: { name: ip, generation }, subsets: [{ addresses: [{ ip }] }],
  });
  const failed = (what: string, code: string): Error => Object.assign(new Error(`${what}: ${code}`), { code: 'Unavailable' });

  return {
    async listLeases() {
      const listed = await backend.list(masterLeasesPrefix);
      if (!listed.ok) throw failed('listing the API server leases', listed.error.code);
      const t = now();
      const live: string[] = [];
      const seen = new Set<string>();
      for (const kv of listed.value.kvs) {
        seen.add(kv.key);
        const before = observed.get(kv.key);
        if (before?.modRevision !== kv.modRevision) observed.set(kv.key, { modRevision: kv.modRevision, at: t });
        const since = observed.get(kv.key)!.at;
        if (t - since < ttlMs) {
          live.push(kv.key.slice(masterLeasesPrefix.length));
          continue;
        }
        // Expired: gone, as etcd's TTL would have it; a refresh since then makes the delete a no-op conflict.
        await backend.delete(kv.key, kv.modRevision);
        observed.delete(kv.key);
      }
      for (const key of observed.keys()) if (!seen.has(key)) observed.delete(key);
      return live.sort();
    },
    async updateLease(ip) {
      const key = keyOf(ip);
      // kube's GuaranteedUpdate bumps the generation so that the write changes the key (and its TTL restarts).
      for (let attempt = 0; attempt < 16; attempt++) {
        const got = await backend.get(key);
        if (!got.ok) throw failed('reading the API server lease', got.error.code);
        const current = got.value.kv;
        if (current === undefined) {
          const created = await backend.create(key, value(ip, 1));
          if (created.ok) {
            observed.set(key, { modRevision: created.value.modRevision, at: now() });
            return;
          }
          continue;
        }
        const generation = ((JSON.parse(current.value) as { metadata?: { generation?: number } }).metadata?.generation ?? 0) + 1;
        const updated = await backend.update(key, value(ip, generation), current.modRevision);
        if (updated.ok) {
          observed.set(key, { modRevision: updated.value.modRevision, at: now() });
          return;
        }
      }
      throw failed('refreshing the API server lease', 'Conflict');
    },
    async removeLease(ip) {
      const removed = await backend.delete(keyOf(ip));
      observed.delete(keyOf(ip));
      return removed.ok;
    },
  };
}
