/**
 * Delivery of live watch events to in-process watchers (informers, allocators), in order. Each such watcher gets
 * the event's object decoded as a copy of its own, and decoding an object of a hundred thousand keys takes as long
 * as a turn of the event loop may: several watchers decoding it in the same turn would hold every client for all
 * of them. Events are delivered at once while the turn has budget left (see limits/turn-budget.ts) and nothing
 * waits; otherwise they wait, in order, for later turns — and so do the watch's end and errors, which must come
 * after its events.
 */
import type { Status, WatchEvent } from '@svc-apiserver/api';
import { yieldIfSpent, turnSpent } from '../limits/turn-budget.js';

/** An in-process watcher (the reader's WatchSink without `frame`). */
export interface InProcessWatcher {
  event(event: WatchEvent): void;
  error(status: Status): void;
  end?(): void;
}

/** The deliveries of one in-process watch. */
export interface InProcessDelivery {
  /** Delivers the event `make` builds when its turn comes. */
  event(make: () => WatchEvent): void;
  error(status: Status): void;
  end(): void;
  /** Drops what still waits: the watch is cancelled. */
  cancel(): void;
}

/** In-order, budgeted delivery to `sink`. */
export function inProcessDelivery(sink: InProcessWatcher): InProcessDelivery {
  const waiting: (() => void)[] = [];
  let draining = false;
  let cancelled = false;
  const drain = async (): Promise<void> => {
    draining = true;
    while (waiting.length > 0 && !cancelled) {
      await yieldIfSpent();
      if (cancelled) break;
      waiting.shift()!();
    }
    waiting.length = 0;
    draining = false;
  };
  const run = (call: () => void): void => {
    if (cancelled) return;
    if (waiting.length === 0 && !turnSpent()) {
      call();
      return;
    }
    waiting.push(call);
    if (!draining) void drain();
  };
  return {
    event: (make) => run(() => sink.event(make())),
    error: (status) => run(() => sink.error(status)),
    end: () => run(() => (sink.end !== undefined ? sink.end() : undefined)),
    cancel() {
      cancelled = true;
    },
  };
}
