/**
 * Keeps a {@link ServiceAllocator} in step with the stored Services: one in-process watch of every Service (its
 * initial state first, so the tables are complete when this resolves), restarted after a failure.
 */
import { selectEverything } from '../selection.js';
import type { Registry } from '../registry.js';
import type { ServiceAllocator } from './service-allocator.js';

/** Starts the feed; resolves once the current Services are known. */
export async function startServiceAllocationFeed(registry: Registry, allocator: ServiceAllocator, log: (m: string) => void = () => {}): Promise<{ stop(): void }> {
  const def = registry.lookup('', 'v1', 'services');
  if (def === undefined) return { stop() {} };
  let stopped = false;
  let cancel: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const restart = (): void => {
    if (stopped) return;
    allocator.reset();
    timer = setTimeout(() => void run(), 1000);
    timer.unref();
  };
  const run = async (): Promise<void> => {
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
      log(`service allocation watch failed: ${started.status.message ?? ''}`);
      restart();
      return;
    }
    cancel = () => started.value.cancel();
  };
  await run();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      cancel?.();
    },
  };
}
