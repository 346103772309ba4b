/**
 * The periodic compactor, as kube-apiserver runs one against etcd: history older than a time window is forgotten.
 * Backends count revisions, not time, so the compactor samples the current revision on every tick and remembers
 * when it saw it; a tick compacts to the newest revision that was already current `windowMs` ago. The record is in
 * memory: after a restart the first compaction comes one window later, which only keeps history longer.
 */
import type { Backend } from './backend.js';

/** Options of {@link startCompactor}. */
export interface CompactorOptions {
  /** History younger than this stays readable and watchable (default 5 minutes). */
  readonly windowMs?: number;
  /** How often to sample and compact (default a fifth of the window). */
  readonly intervalMs?: number;
  /** Clock, for tests (default `Date.now`). */
  readonly now?: () => number;
  /** Told when a compaction fails (the store is unavailable); the compactor keeps going. */
  readonly onError?: (error: unknown) => void;
}

/** A running compactor. */
export interface Compactor {
  /** Samples and compacts once, after any tick in progress (what each interval does). */
  tick(): Promise<void>;
  /** Stops the timer; a tick in progress completes. */
  stop(): void;
}

/** Starts compacting `backend` every `intervalMs`, keeping `windowMs` of history. */
export function startCompactor(backend: Backend, options: CompactorOptions = {}): Compactor {
  const windowMs = options.windowMs ?? 5 * 60 * 1000;
  const intervalMs = options.intervalMs ?? Math.max(1000, Math.floor(windowMs / 5));
  const now = options.now ?? Date.now;
  /** (time, revision) samples, oldest first. */
  let samples: { readonly at: number; readonly revision: number }[] = [];

  const once = async (): Promise<void> => {
    const at = now();
    samples.push({ at, revision: await backend.currentRevision() });
    const cutoff = at - windowMs;
    let newest = -1;
    while (newest + 1 < samples.length && samples[newest + 1]!.at <= cutoff) newest++;
    if (newest < 0) return;
    const target = samples[newest]!.revision;
    // The chosen sample stays: a later tick may find no newer one old enough and should not go backwards.
    samples = samples.slice(newest);
    if (target > (await backend.compactRevision())) await backend.compact(target);
  };

  let chain: Promise<void> = Promise.resolve();
  let queued = 0;
  const tick = (): Promise<void> => {
    queued += 1;
    chain = chain
      .then(once)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        queued -= 1;
      });
    return chain;
  };

  void tick();
  // A slow compaction makes the timer skip, rather than pile ticks up behind it.
  const timer = setInterval(() => {
    if (queued === 0) void tick();
  }, intervalMs);
  timer.unref();
  return {
    tick,
    stop: () => clearInterval(timer),
  };
}
