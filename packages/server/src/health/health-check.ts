/**
 * A health check (k8s.io/apiserver's healthz.HealthChecker): a named probe served at `/livez/<name>`,
 * `/readyz/<name>` and `/healthz/<name>` and listed in their verbose output.
 */

/** One check. `check` resolves to undefined when healthy, or to the reason it is not. */
export interface HealthCheck {
  readonly name: string;
  check(): Promise<string | undefined>;
}
