/**
 * A load generator worker process (started by load-generator.ts over an IPC channel): it opens its share of the
 * keep-alive connections, then for each run keeps one request in flight on every connection until the time is up
 * (or the plan's count is reached), and answers with counts, statuses and a latency histogram. The parent never
 * sends a request itself, so the process that measures is not the one the server competes with for a core.
 */
import { Http1Connection, type Http1Target } from './http1-connection.js';
import { LatencyHistogram } from './latency-histogram.js';
import { requestRenderer, type LoadPlan } from './load-plan.js';
import type { WorkerCommand, WorkerReply, RunFigures } from './worker-protocol.js';

let connections: Http1Connection[] = [];
let first = 0;
let total = 0;
let target: Http1Target | undefined;

function reply(message: WorkerReply): void {
  process.send!(message);
}

/**
 * Opens again the connections that ended since the last run: the server closes a keep-alive connection left idle
 * (node's 5 s keep-alive timeout) between phases, and a client then connects again, as any HTTP client does.
 */
async function reconnect(): Promise<void> {
  connections = await Promise.all(connections.map((c) => (c.failed ? Http1Connection.open(target!) : c)));
}

/** Runs a plan on every connection of this worker for `ms`, after opening again those that ended. */
async function run(plan: LoadPlan, ms: number): Promise<RunFigures> {
  await reconnect();
  return runOnOpenConnections(plan, ms);
}

function runOnOpenConnections(plan: LoadPlan, ms: number): Promise<RunFigures> {
  const histogram = new LatencyHistogram();
  const statuses: Record<string, number> = {};
  const perConnection = connections.map(() => 0);
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const renderer = requestRenderer(plan, `${target!.host}:${target!.port}`, target!.token);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let last = start;
  return new Promise((resolve) => {
    const active = connections.filter((_, j) => plan.connections === undefined || first + j < plan.connections);
    // `{n}` is strided over the connections that send.
    const stride = plan.connections === undefined ? total : Math.min(total, plan.connections);
    let running = active.length;
    const stopped = (): void => {
      if (--running > 0) return;
      const used = process.cpuUsage(cpu);
      resolve({
        ok, errors, statuses, histogram: histogram.toCounts(), perConnection, seconds: (last - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6,
        ...(firstError === undefined ? {} : { firstError }),
      });
    };
    if (running === 0) {
      running = 1;
      stopped();
    }
    active.forEach((conn, j) => {
      const c = first + j;
      const modulo = Math.max(1, plan.modulo?.[c] ?? 1);
      let i = 0;
      const next = (): void => {
        const n = c + i * stride;
        if (performance.now() >= end || (plan.count !== undefined && n >= plan.count)) {
          stopped();
          return;
        }
        const request = renderer.render({ c, i, n, k: i % modulo });
        const t0 = performance.now();
        conn.send(request, plan.expect, (r) => {
          last = performance.now();
          histogram.record(last - t0);
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status === plan.expect) {
            ok++;
            perConnection[j]!++;
          } else {
            errors++;
            firstError ??= `${r.status} ${r.body ?? ''}`.slice(0, 500);
          }
          i++;
          // A connection that failed answers at once: stop it rather than spin.
          if (r.status === 0) stopped();
          else next();
        });
      };
      next();
    });
  });
}

// The parent went away (it ended or was killed): nothing is left to measure for.
process.on('disconnect', () => {
  for (const c of connections) c.close();
  process.exit(0);
});

process.on('message', (message: WorkerCommand) => {
  switch (message.type) {
    case 'open': {
      target = message.target;
      first = message.first;
      total = message.total;
      Promise.all(Array.from({ length: message.connections }, () => Http1Connection.open(message.target))).then(
        (opened) => {
          connections = opened;
          reply({ type: 'opened' });
        },
        (e: Error) => reply({ type: 'failed', message: e.message }),
      );
      return;
    }
    case 'run':
      run(message.plan, message.ms).then(
        (figures) => reply({ type: 'ran', figures }),
        (e: Error) => reply({ type: 'failed', message: `reconnecting: ${e.message}` }),
      );
      return;
    case 'close':
      process.disconnect();
      return;
  }
});
