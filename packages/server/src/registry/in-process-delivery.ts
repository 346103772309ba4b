/**
 * Delivery of live watch events to in-process watchers (informers, allocators), in order. Each such watcher gets
 * the event's object decoded as a copy of its own, and decoding an object of a hundred thousand keys at once would
 * hold every client for longer than a turn of the event loop may (see limits/turn-budget.ts). An event whose
 * object is large is built across turns (its object decoded in slices), and what comes after it waits behind it,
 * in order — the watch's end and errors too, which must come after its events; the rest is delivered at once.
 */
import type { Status, WatchEvent } from '@svc-apiserver/api';
import { yieldTurn } from '../limits/turn-budget.js';

/** An in-process watcher (the reader's WatchSink without `frame`). */
export interface InProcessWatcher {
  event(event: WatchEvent): void;
  error(status: Status): void;
  end?(): void;
}

/** The deliveries of one in-process watch. */
export interface InProcessDelivery {
  /**
   * Delivers the event `make` builds when its turn comes; a `large` one is built in turns of its own (`make` may
   * then answer a promise).
   */
  event(make: () => WatchEvent | Promise<WatchEvent>, large?: boolean): void;
  error(status: Status): void;
  end(): void;
  /** Drops what still waits: the watch is cancelled. */
  cancel(): void;
}

/** In-order, budgeted delivery to `sink`. */
export function inProcessDelivery(sink: InProcessWatcher): InProcessDelivery {
  const waiting: { readonly call: () => void | Promise<void>; readonly large: boolean }[] = [];
  let draining = false;
  let cancelled = false;
  const drain = async (): Promise<void> => {
    draining = true;
    // The event stays first in line while its turn is awaited: a later event must not overtake it.
    while (waiting.length > 0 && !cancelled) {
      const next = waiting[0]!;
      if (next.large) await yieldTurn();
      if (cancelled) break;
      await next.call();
      waiting.shift();
    }
    waiting.length = 0;
    draining = false;
  };
  const run = (call: () => void | Promise<void>, large = false): void => {
    if (cancelled) return;
    if (waiting.length === 0 && !draining && !large) {
      void call();
      return;
    }
    waiting.push({ call, large });
    if (!draining) void drain();
  };
  return {
    event: (make, large) => run(() => {
      const built = make();
      if (!(built instanceof Promise)) return sink.event(built);
      return built.then((event) => (cancelled ? undefined : sink.event(event)));
    }, large),
    error: (status) => run(() => sink.error(status)),
    end: () => run(() => (sink.end !== undefined ? sink.end() : undefined)),
    cancel() {
      cancelled = true;
    },
  };
}
