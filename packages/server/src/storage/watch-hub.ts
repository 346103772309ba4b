/**
 * Fan-out of committed changes to watchers, shared by the in-process backends (memory, sqlite).
 *
 * Mirrors etcd's watch guarantees: events after the requested revision, in revision order, each once, no gaps.
 * The seam between history and live events is exact because both backends commit and publish in one synchronous
 * step: a watcher registered between two commits replays everything up to the revision the store is at when it
 * registers and then receives every later commit. Delivery is always asynchronous (never inside `watch()` or inside
 * a write) so a listener can cancel, and a slow listener cannot stall writers.
 */
import type { BackendEvent, BackendResult, BackendWatch, WatchListener } from './backend.js';

/** Where a hub reads history from. */
export interface WatchHistory {
  /** The newest committed revision. */
  currentRevision(): number;
  /** Events under `prefix` with revision in (afterRevision, currentRevision()], in order; `Compacted` if too old. */
  eventsAfter(prefix: string, afterRevision: number): BackendResult<readonly BackendEvent[], 'Compacted'>;
}

/** The watcher registry of one backend. */
export interface WatchHub {
  watch(prefix: string, afterRevision: number, listener: WatchListener): BackendWatch;
  /** Hands a committed batch (in revision order) to the watchers whose prefix it touches. */
  publish(events: readonly BackendEvent[]): void;
  /** Ends every watch with `Unavailable` (the store closed). */
  closeAll(message: string): void;
}

interface Watcher {
  readonly prefix: string;
  readonly listener: WatchListener;
  /** Highest revision queued for delivery; later batches start above it. */
  covered: number;
  readonly queue: (readonly BackendEvent[])[];
  scheduled: boolean;
  active: boolean;
  /** Set when the watch ends: told after the events already queued. */
  error?: Parameters<WatchListener['onError']>[0];
}

/** Creates a hub reading history from `history`. */
export function createWatchHub(history: WatchHistory): WatchHub {
  const watchers = new Set<Watcher>();

  const flush = (w: Watcher): void => {
    w.scheduled = false;
    while (w.active && w.queue.length > 0) {
      const batch = w.queue.shift();
      if (batch !== undefined) w.listener.onEvents(batch);
    }
    if (w.active && w.error !== undefined) {
      w.active = false;
      w.listener.onError(w.error);
    }
  };
  const schedule = (w: Watcher): void => {
    if (w.scheduled) return;
    w.scheduled = true;
    queueMicrotask(() => flush(w));
  };
  const fail = (w: Watcher, error: Parameters<WatchListener['onError']>[0]): void => {
    watchers.delete(w);
    w.error = error;
    schedule(w);
  };

  return {
    watch(prefix, afterRevision, listener) {
      const w: Watcher = { prefix, listener, covered: afterRevision, queue: [], scheduled: false, active: true };
      const replay = history.eventsAfter(prefix, afterRevision);
      if (!replay.ok) {
        fail(w, replay.error);
      } else {
        if (replay.value.length > 0) {
          w.queue.push(replay.value);
          schedule(w);
        }
        w.covered = Math.max(afterRevision, history.currentRevision());
        watchers.add(w);
      }
      return {
        cancel() {
          w.active = false;
          w.queue.length = 0;
          watchers.delete(w);
        },
      };
    },
    publish(events) {
      if (events.length === 0) return;
      for (const w of watchers) {
        const mine = events.filter((e) => e.kv.modRevision > w.covered && e.kv.key.startsWith(w.prefix));
        if (mine.length === 0) continue;
        w.covered = mine[mine.length - 1]!.kv.modRevision;
        w.queue.push(mine);
        schedule(w);
      }
    },
    closeAll(message) {
      for (const w of [...watchers]) fail(w, { code: 'Unavailable', message });
    },
  };
}
