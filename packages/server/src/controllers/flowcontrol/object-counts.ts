/**
 * The stored object counts the list work estimate reads (kube 1.27's generic store, which counts its prefix every
 * `--etcd-count-metric-poll-period`, one minute, into the flow controller's StorageObjectCountTracker): every
 * served resource's store prefix is counted at start and then every period, keyed by group and resource; counts of
 * resources no longer served are forgotten after an hour.
 */
import { groupResourceKey, type ObjectCountTracker } from '../../flowcontrol/object-count-tracker.js';
import type { Registry } from '../../registry/registry.js';

/** Options of {@link startObjectCounting}. */
export interface ObjectCountingOptions {
  /** Pause between counts (kube's default poll period: 1 minute). */
  readonly periodMs?: number;
  readonly log?: (message: string) => void;
}

/** The running counter. */
export interface ObjectCounting {
  /** Counts every served resource now (tests). */
  count(): Promise<void>;
  stop(): void;
}

/** Counts the registry's served resources into `tracker` until stopped. */
export function startObjectCounting(registry: Registry, tracker: ObjectCountTracker, options: ObjectCountingOptions = {}): ObjectCounting {
  const backend = registry.store.backend;
  let stopped = false;
  const count = async (): Promise<void> => {
    // Versions of one resource share their store prefix: each prefix is counted once.
    const prefixes = new Map<string, string>();
    for (const def of registry.all()) if (!prefixes.has(def.keyPrefix)) prefixes.set(def.keyPrefix, groupResourceKey(def.group, def.resource));
    for (const [prefix, key] of prefixes) {
      if (stopped) return;
      // A store that cannot count keeps the last count, which goes stale (kube sets -1, ignored the same way).
      const counted = await backend.count(prefix).catch((e: unknown) => {
        if (!stopped) options.log?.(`counting ${key}: ${String(e)}`);
        return undefined;
      });
      if (counted !== undefined) tracker.set(key, counted.count);
    }
    tracker.prune();
  };
  void count();
  const timer = setInterval(() => void count(), options.periodMs ?? 60_000);
  timer.unref();
  return {
    count,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
