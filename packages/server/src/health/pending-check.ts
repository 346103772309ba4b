/**
 * A check whose probe starts later than the health endpoints (a post-start hook that needs the listener's port or
 * URL): it fails with `not started` until the probe is attached, then answers as the probe does.
 */
import type { HealthCheck } from './health-check.js';

/** A check waiting for its probe. */
export interface PendingCheck extends HealthCheck {
  /** Hands over the probe. */
  attach(probe: HealthCheck): void;
}

/** A pending check named `name`. */
export function pendingCheck(name: string): PendingCheck {
  let probe: HealthCheck | undefined;
  return {
    name,
    check: async () => (probe === undefined ? 'not started' : probe.check()),
    attach(p) {
      probe = p;
    },
  };
}
