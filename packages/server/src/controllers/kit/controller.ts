/**
 * The one controller shape (kube-controller-manager's controllers as client-go writes them): informers from the watch
 * cache whose listeners put keys on work queues, and workers that take one key at a time and `sync` it. What `sync`
 * answers decides the key's fate: done (its back-off is forgotten), retry (queued again after its exponential
 * back-off: something failed), or retry after a pause (queued again then, back-off untouched: work that is waiting,
 * not failing, as the namespace controller waits for content to go). Workers start once every informer has synced
 * (WaitForCacheSync); a sync that throws is a bug, logged and retried like a failure (utilruntime.HandleError).
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../../health/health-check.js';
import type { Informer, InformerListener } from '../../registry/informer.js';
import type { Registry } from '../../registry/registry.js';
import type { ControllerConfig } from './controller-config.js';
import { createInformerFactory, type InformerFactory } from './informer-factory.js';
import type { WorkQueue } from './work-queue.js';

/** What one sync of a key came to. */
export type SyncResult =
  | { readonly kind: 'done' }
  | { readonly kind: 'retry'; readonly reason: string }
  | { readonly kind: 'retryAfter'; readonly delayMs: number };

/** The key is handled; its back-off is reset. */
export const done: SyncResult = { kind: 'done' };
/** The sync failed: the key is queued again after its back-off, and `reason` is logged. */
export const retry = (reason: string): SyncResult => ({ kind: 'retry', reason });
/** The key waits on something else: it is queued again after `delayMs`. */
export const retryAfter = (delayMs: number): SyncResult => ({ kind: 'retryAfter', delayMs });

/** What every controller is started with (kube's ControllerContext). */
export interface ControllerContext {
  readonly registry: Registry;
  readonly names: Names;
  /** Informers shared with the other controllers; a controller started without them starts (and stops) its own. */
  readonly informers?: InformerFactory;
  /** Pause before a failed informer watch starts again, and of the controllers' waits on unfinished work (default 1 s). */
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
  /** Settings of the controllers that need more than the registry. */
  readonly config?: ControllerConfig;
}

/** One queue and the sync its workers run. */
export interface WorkLoop {
  readonly queue: WorkQueue;
  sync(key: string): Promise<SyncResult>;
  /** How many keys are synced at once (default 1); one key is never synced twice at once. */
  readonly workers?: number;
}

/** A listener on an informer, added with the current objects replayed and removed when the controller stops. */
export interface EventHandler {
  readonly informer: Informer;
  readonly listener: InformerListener;
}

/** What a controller is made of. */
export interface ControllerDefinition {
  /** Informers that must have synced before the workers start (those of `handlers` are waited for too). */
  readonly informers?: readonly Informer[];
  readonly handlers?: readonly EventHandler[];
  readonly loops: readonly WorkLoop[];
  /** Runs once every informer has synced, just before the workers start. */
  onSynced?(): void;
  /** Name of the health check (default: the controller's name). */
  readonly healthCheckName?: string;
  /** Runs when the controller stops (listeners it added itself). */
  onStop?(): void;
}

/** A running controller. */
export interface Controller {
  /** kube-controller-manager's name of it (the `--controllers` name). */
  readonly name: string;
  /** Fails while one of its informers is not watching. */
  readonly checks: HealthCheck[];
  /** Resolves once its informers have synced and no key is queued, being synced or waiting to be retried. */
  idle(): Promise<void>;
  /** Removes its listeners, drops queued keys, waits for the syncs under way, stops informers it started. */
  stop(): Promise<void>;
}

/** Runs the controller `define` describes, over the context's informers (or its own). */
export function runController(
  name: string,
  context: Omit<ControllerContext, 'names'>,
  define: (informers: InformerFactory) => ControllerDefinition,
): Controller {
  const ownsInformers = context.informers === undefined;
  const factory = context.informers ?? createInformerFactory(context.registry, {
    ...(context.retryMs === undefined ? {} : { retryMs: context.retryMs }),
    ...(context.log === undefined ? {} : { log: context.log }),
  });
  const definition = define(factory);
  const informers = [...new Set([...(definition.informers ?? []), ...(definition.handlers ?? []).map((h) => h.informer)])];
  const removals = (definition.handlers ?? []).map((h) => h.informer.onChange(h.listener, { replay: true }));
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let markStopped!: () => void;
  const stoppedSignal = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  const workers: Promise<void>[] = [];

  const work = async (loop: WorkLoop): Promise<void> => {
    for (;;) {
      const key = await loop.queue.get();
      if (key === undefined) return;
      let result: SyncResult;
      try {
        result = await loop.sync(key);
      } catch (error) {
        result = retry(error instanceof Error ? (error.stack ?? error.message) : String(error));
      }
      if (result.kind === 'done') loop.queue.forget(key);
      else if (result.kind === 'retryAfter') loop.queue.addAfter(key, result.delayMs);
      else {
        context.log?.(`${name}: syncing ${key || '""'} failed (retry ${loop.queue.numRequeues(key) + 1}): ${result.reason}`);
        loop.queue.addRateLimited(key);
      }
      loop.queue.done(key);
    }
  };

  const started = Promise.all(informers.map((i) => i.synced())).then(() => {
    if (stopped) return;
    definition.onSynced?.();
    for (const loop of definition.loops) for (let i = 0; i < (loop.workers ?? 1); i++) workers.push(work(loop));
  });

  return {
    name,
    checks: [{
      name: definition.healthCheckName ?? name,
      async check() {
        const notWatching = informers.filter((i) => !i.isWatching()).map((i) => i.def.resource);
        return notWatching.length === 0 ? undefined : `not watching ${[...new Set(notWatching)].join(', ')}`;
      },
    }],
    async idle() {
      await Promise.race([started, stoppedSignal]);
      while (!stopped) {
        await Promise.all(definition.loops.map((l) => l.queue.idle()));
        // A sync of one queue may have queued keys on another meanwhile.
        if (definition.loops.every((l) => l.queue.isIdle())) return;
      }
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        markStopped();
        for (const remove of removals) remove();
        definition.onStop?.();
        await Promise.all(definition.loops.map((l) => l.queue.shutDown()));
        await Promise.all(workers);
        if (ownsInformers) factory.stop();
      })();
      return stopping;
    },
  };
}
