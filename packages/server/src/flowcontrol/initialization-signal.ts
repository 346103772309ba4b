/**
 * The signal that a watch has been initialized (kube 1.27's InitializationSignal, from apf_context.go): API
 * Priority and Fairness holds a watch's seat while its initial state is made and sent, and gives it back when the
 * signal fires — the watch itself then lives on without a seat. Firing is idempotent, so every way a watch can end
 * its initialization (served, failed, abandoned) may fire it.
 */

/** A one-shot signal. */
export interface InitializationSignal {
  /** Fires the signal (once; later calls do nothing). */
  signal(): void;
  /** Resolves when the signal fires. */
  readonly initialized: Promise<void>;
  readonly fired: boolean;
}

/** Creates a signal that has not fired. */
export function createInitializationSignal(): InitializationSignal {
  let fire: () => void = () => {};
  let fired = false;
  const initialized = new Promise<void>((resolve) => (fire = resolve));
  return {
    signal() {
      if (fired) return;
      fired = true;
      fire();
    },
    initialized,
    get fired() {
      return fired;
    },
  };
}
