/**
 * A post-start hook (k8s.io/apiserver's PostStartHookFunc with its readyz check `poststarthook/<name>`): work run
 * once at start, tried again after a pause until it succeeds; its check fails, with the last error, until then.
 */

/** A running hook. */
export interface PostStartHook {
  /** Resolves once the work succeeded (or the hook was stopped). */
  readonly done: Promise<void>;
  /** Undefined once the work succeeded, else the last error (the readyz check). */
  check(): Promise<string | undefined>;
  stop(): void;
}

/**
 * Runs `attempt` until it answers undefined (done); an error it answers or throws is kept for the check, logged,
 * and followed by a pause of `retryMs`. `attempt` is given `stopped()` to end early.
 */
export function runPostStartHook(
  attempt: (stopped: () => boolean) => Promise<string | undefined>,
  retryMs: number,
  log?: (message: string) => void,
): PostStartHook {
  let finished = false;
  let stopped = false;
  let lastError = 'not finished';
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => {};
  const done = (async () => {
    while (!stopped) {
      let error: string | undefined;
      try {
        error = await attempt(() => stopped);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      if (error === undefined && !stopped) {
        finished = true;
        return;
      }
      if (error !== undefined) {
        lastError = error;
        log?.(error);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, retryMs);
      });
    }
  })();
  return {
    done,
    check: async () => (finished ? undefined : lastError),
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      wake();
    },
  };
}
