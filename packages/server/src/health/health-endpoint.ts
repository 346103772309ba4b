/**
 * The health endpoints `/livez`, `/readyz`, `/healthz` (k8s.io/apiserver's healthz.InstallPathHandler):
 * `?verbose` lists every check as `[+]<name> ok` / `[-]<name> failed: reason withheld`, `?exclude=<name>`
 * (repeatable) skips a check and shows it as `[+]<name> excluded: ok`, and the last line is
 * `<endpoint> check passed` (200) or `<endpoint> check failed` (500; the list is always printed on failure).
 * `/<endpoint>/<name>` runs one check.
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

/** Where failed checks are reported (their reasons are withheld from clients). */
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
      const excluded = new Set(query.getAll('exclude').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean));
      const verbose = query.has('verbose') && !['false', '0'].includes(query.get('verbose') ?? '');
      const reasons = await Promise.all(checks.map((c) => (excluded.has(c.name) ? Promise.resolve(undefined) : run(c))));
      const lines: string[] = [];
      const failed: string[] = [];
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
          failed.push(`${c.name}: ${reason}`);
        }
      });
      if (excluded.size > 0) {
        lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(',')}`);
      }
      if (failed.length > 0) {
        log(`${name} check failed: ${failed.join('; ')}`);
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
      log(`${name} check ${checkName} failed: ${reason}`);
      return { code: 500, body: 'internal server error: reason withheld\n' };
    },
  };
}
