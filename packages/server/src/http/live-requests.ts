/**
 * The requests a server is serving, each by its abort controller, so a graceful shutdown can end the long-running
 * ones (watches) as kube-apiserver's shutdown does. A set, not one server-wide AbortSignal every request listens on:
 * thousands of open watches would pile listeners on that one signal (node warns past ten) for no gain.
 */

/** What a tracked request is aborted through (an AbortController, or a request's lazily made one). */
export interface Abortable {
  abort(): void;
}

/** The live requests of one server. */
export interface LiveRequests {
  /** True once {@link LiveRequests.abortAll} ran: later requests are aborted as they arrive. */
  readonly aborting: boolean;
  /** Tracks a request until the returned release is called (when its response closes). */
  add(controller: Abortable): () => void;
  /** Aborts every live request and every later one (shutdown). */
  abortAll(): void;
  /** How many requests are tracked (tests, metrics). */
  size(): number;
}

/** Creates an empty set. */
export function createLiveRequests(): LiveRequests {
  const live = new Set<Abortable>();
  let aborting = false;
  return {
    get aborting() {
      return aborting;
    },
    add(controller) {
      if (aborting) {
        controller.abort();
        return () => {};
      }
      live.add(controller);
      return () => void live.delete(controller);
    },
    abortAll() {
      aborting = true;
      const all = [...live];
      live.clear();
      for (const c of all) c.abort();
    },
    size: () => live.size,
  };
}
