/**
 * The health endpoints `/livez`, `/readyz`, `/healthz` (k8s.io/apiserver's healthz.InstallPathHandler):
 * `?verbose` (present, whatever its value) lists every check as `[+]<name> ok` / `[-]<name> failed: reason
 * withheld`, `?exclude=<name>` (repeatable, each value one name) skips a check and shows it as
 * `[+]<name> excluded: ok`, names matching no check are listed, sorted, in a `warn:` line, and the last line is
 * `<endpoint> check passed` (200) or `<endpoint> check failed` (500; the list is always printed on failure, the
 * reasons only logged). `/<endpoint>/<name>` runs one check and, as kube's, says why it failed:
 * `internal server error: <reason>`.
 */
import type { HealthCheck } from './health-check.js';

/** The answer of a health endpoint. */
export interface HealthResponse {
  readonly code: number;
  readonly body: string;
}

/** A health endpoint over its checks. */
export interface HealthEndpoint {
  /** `livez`, `readyz` or `healthz`. */
  readonly name: string;
  /** The checks' names, in order. */
  readonly checkNames: readonly string[];
  /** Runs every check (`/livez`). */
  all(query: URLSearchParams): Promise<HealthResponse>;
  /** Runs one check (`/livez/<name>`); undefined when there is no such check. */
  one(checkName: string): Promise<HealthResponse | undefined>;
}

/** Where failed checks are reported with their reasons (the endpoints withhold them from clients). */
export type HealthLogger = (message: string) => void;

/** Builds a health endpoint. */
export function healthEndpoint(name: string, checks: readonly HealthCheck[], log: HealthLogger = () => {}): HealthEndpoint {
  const run = async (check: HealthCheck): Promise<string | undefined> => {
    try {
      return await check.check();
    } catch (e) {
      return `check threw: ${(e as Error).message}`;
    }
  };
  return {
    name,
    checkNames: checks.map((c) => c.name),
    async all(query) {
      const excluded = new Set(query.getAll('exclude'));
      const verbose = query.has('verbose');
      const reasons = await Promise.all(checks.map((c) => (excluded.has(c.name) ? Promise.resolve(undefined) : run(c))));
      const lines: string[] = [];
      const failed: { name: string; reason: string }[] = [];
      checks.forEach((c, i) => {
        if (excluded.has(c.name)) {
          lines.push(`[+]${c.name} excluded: ok`);
          excluded.delete(c.name);
          return;
        }
        const reason = reasons[i];
        if (reason === undefined) lines.push(`[+]${c.name} ok`);
        else {
          lines.push(`[-]${c.name} failed: reason withheld`);
          failed.push({ name: c.name, reason });
        }
      });
      if (excluded.size > 0) {
        const unmatched = [...excluded].sort().map((e) => JSON.stringify(e)).join(',');
        lines.push(`warn: some health checks cannot be excluded: no matches for ${unmatched}`);
        log(`cannot exclude some health checks, no health checks are installed matching ${unmatched}`);
      }
      if (failed.length > 0) {
        log(`${failed.map((f) => f.name).join(',')} check failed: ${name}\n${failed.map((f) => `[-]${f.name} failed: ${f.reason}`).join('\n')}`);
        return { code: 500, body: `${lines.join('\n')}\n${name} check failed\n` };
      }
      if (!verbose) return { code: 200, body: 'ok' };
      return { code: 200, body: `${lines.join('\n')}\n${name} check passed\n` };
    },
    async one(checkName) {
      const check = checks.find((c) => c.name === checkName);
      if (check === undefined) return undefined;
      const reason = await run(check);
      if (reason === undefined) return { code: 200, body: 'ok' };
      return { code: 500, body: `internal server error: ${reason}\n` };
    },
  };
}
