/**
 * Keeps a {@link ServiceAllocator} in step with the stored Services: one in-process watch of every Service (its
 * initial state first, so the tables are complete when this resolves), restarted after a failure. Once the Services
 * are known, and then every `repairIntervalMs` (kube's repair controllers run every 3 minutes), the stored range
 * records are repaired from them.
 */
import { selectEverything } from '../selection.js';
import type { Registry } from '../registry.js';
import type { ServiceAllocator } from './service-allocator.js';

/** Starts the feed; resolves once the current Services are known. */
export async function startServiceAllocationFeed(
  registry: Registry, allocator: ServiceAllocator, log: (m: string) => void = () => {}, repairIntervalMs = 3 * 60 * 1000,
): Promise<{ stop(): void }> {
  const def = registry.lookup('', 'v1', 'services');
  if (def === undefined) return { stop() {} };
  let stopped = false;
  let cancel: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let synced = false;
  const repair = async (): Promise<void> => {
    if (!synced || stopped) return;
    try {
      await allocator.repair();
    } catch (error) {
      log(`service allocation repair failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const repairTimer = setInterval(() => void repair(), repairIntervalMs);
  repairTimer.unref();
  const restart = (): void => {
    if (stopped) return;
    synced = false;
    allocator.reset();
    timer = setTimeout(() => void run(), 1000);
    timer.unref();
  };
  const run = async (): Promise<void> => {
    try {
      await watchServices();
    } catch (error) {
      // The store is unreachable (etcd down at start): try again, as on any failed watch.
      log(`service allocation watch failed: ${error instanceof Error ? error.message : String(error)}`);
      restart();
    }
  };
  const watchServices = async (): Promise<void> => {
    const started = await registry.store.watch(def, { namespace: '', selection: selectEverything }, {
      event(e) {
        if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
        const meta = (e.object as { metadata?: { namespace?: string; name?: string } }).metadata ?? {};
        allocator.observe(`${meta.namespace ?? ''}/${meta.name ?? ''}`, e.type === 'DELETED' ? undefined : e.object);
      },
      error(status) {
        log(`service allocation watch ended: ${status.message ?? ''}`);
        restart();
      },
      end: restart,
    });
    if (!started.ok) {
      log(`service allocation watch failed: ${started.error.message ?? ''}`);
      restart();
      return;
    }
    cancel = () => started.value.cancel();
    synced = true;
    void repair();
  };
  await run();
  return {
    stop() {
      stopped = true;
      clearInterval(repairTimer);
      if (timer !== undefined) clearTimeout(timer);
      cancel?.();
    },
  };
}
