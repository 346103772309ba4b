/**
 * The buffered audit backend (k8s.io/apiserver/plugin/pkg/audit/buffered): events wait in a bounded buffer and
 * leave in batches of at most `maxBatchSize`, as soon as a batch is full or `maxBatchWaitMs` after its first event,
 * at most `throttleQps` batches a second (with `throttleBurst`). A request never waits on a write: a full buffer
 * drops the event, and every dropped or failed event is counted in `apiserver_audit_error_total` and logged, so
 * nothing is lost silently.
 */
import type { AuditBackend } from './backend.js';
import type { AuditEvent } from './event.js';
import { auditMetrics } from './audit-metrics.js';

/** Writes or sends one batch; answers why it failed, or undefined. */
export type BatchSink = (events: readonly AuditEvent[]) => Promise<string | undefined>;

/** Buffering and batching settings (the `--audit-<backend>-batch-*` flags). */
export interface BatchOptions {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  /** 0: a batch leaves in the next turn of the event loop. */
  readonly maxBatchWaitMs: number;
  /** Batches a second; 0 or absent: unthrottled. */
  readonly throttleQps?: number;
  readonly throttleBurst?: number;
}

/** A batching backend over `sink`. */
export function batchingBackend(name: string, sink: BatchSink, options: BatchOptions, log: (message: string) => void): AuditBackend {
  const buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let lastDropLog = 0;
  let droppedSinceLog = 0;
  const qps = options.throttleQps ?? 0;
  const burst = Math.max(1, options.throttleBurst ?? 1);
  let tokens = burst;
  let refilledAt = performance.now();

  const dropped = (count: number, why: string): void => {
    auditMetrics().errors.inc({ plugin: name }, count);
    droppedSinceLog += count;
    const now = Date.now();
    // One line a second at most: a stuck backend must not flood the server's log as well.
    if (now - lastDropLog >= 1000) {
      log(`audit ${name} backend dropped ${droppedSinceLog} event(s): ${why}`);
      lastDropLog = now;
      droppedSinceLog = 0;
    }
  };

  const waitForToken = async (): Promise<void> => {
    if (qps <= 0) return;
    for (;;) {
      const now = performance.now();
      tokens = Math.min(burst, tokens + ((now - refilledAt) / 1000) * qps);
      refilledAt = now;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / qps) * 1000)));
    }
  };

  const drain = async (): Promise<void> => {
    while (buffer.length > 0) {
      await waitForToken();
      const batch = buffer.splice(0, options.maxBatchSize);
      let error: string | undefined;
      try {
        error = await sink(batch);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      if (error !== undefined) dropped(batch.length, error);
    }
  };

  const run = (): void => {
    if (running !== undefined) return;
    running = drain().finally(() => {
      running = undefined;
      if (buffer.length > 0) schedule();
    });
  };

  function schedule(): void {
    if (timer !== undefined || running !== undefined) return;
    if (options.maxBatchWaitMs <= 0) {
      timer = setTimeout(() => {
        timer = undefined;
        run();
      }, 0);
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      run();
    }, options.maxBatchWaitMs);
    timer.unref();
  }

  return {
    name,
    processEvents(events) {
      if (closed) {
        dropped(events.length, 'the backend is shut down');
        return;
      }
      const room = Math.max(0, options.bufferSize - buffer.length);
      if (room < events.length) dropped(events.length - room, `the buffer of ${options.bufferSize} events is full`);
      for (let i = 0; i < Math.min(room, events.length); i++) buffer.push(events[i]!);
      if (buffer.length >= options.maxBatchSize) {
        if (timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
        run();
      } else {
        schedule();
      }
    },
    async shutdown() {
      closed = true;
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      while (running !== undefined || buffer.length > 0) {
        if (running === undefined) run();
        await running;
      }
    },
  };
}
