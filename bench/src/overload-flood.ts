/**
 * The overload benchmark's load generator, a process of its own (forked by overload.ts and pinned to the generator's
 * cores) so that neither the benchmark nor its probes share its event loop, and so that its CPU time is its own and
 * can be reported: a generator that uses its whole core measures itself, not the server.
 *
 * It holds `sessions` HTTP/2 connections to one server (a session the server closes is replaced, and more are
 * opened when those have 1,000 streams open each, as client-go's transport does) and runs, on
 * command:
 *
 * - `capacity`: a closed loop of `clients` concurrent GETs for `seconds` — the server's sustainable rate of that
 *   request;
 * - `flood`: an open loop, GETs sent at `rate` a second on schedule whatever comes back, then every answer awaited
 *   (see overload-requests.ts).
 *
 * A flood request's latency runs from the moment it is handed to its HTTP/2 session to its last byte. How late the
 * generator was in sending (its schedule lag) is reported apart: that wait is the generator's, not the server's,
 * and when it grows, the rate asked for was not offered. Answers are tallied by status with their latencies, and
 * every request by its outcome (status, timeout, GOAWAY, reset, session error, not sent), so that a run whose
 * requests got neither 200 nor 429 says what they got.
 *
 * Started with its options as JSON (`FloodOptions`); says `{ type: 'ready' }`, answers each command with one reply
 * and exits on `{ type: 'close' }` or when the parent goes.
 */
import { notSent, sessionPool, type Sample } from './overload-requests.js';

/** What the generator is started with. */
export interface FloodOptions {
  readonly url: string;
  readonly tls: { readonly ca?: string; readonly cert?: string; readonly key?: string };
  readonly sessions: number;
}

/** A command of the parent. */
export type FloodCommand =
  | { readonly type: 'capacity'; readonly path: string; readonly headers: Record<string, string>; readonly clients: number; readonly seconds: number }
  | { readonly type: 'flood'; readonly path: string; readonly headers: Record<string, string>; readonly rate: number; readonly seconds: number }
  | { readonly type: 'close' };

/** The generator's own cost over a command (a flood: while it sent): CPU time and how busy its event loop was. */
export interface GeneratorCost {
  /** CPU ms (user + system) the generator used. */
  readonly cpuMs: number;
  /** Wall ms the command took. */
  readonly wallMs: number;
  /** Event-loop utilization over the command (0 to 1). */
  readonly busy: number;
}

/** A reply. */
export type FloodReply =
  | { readonly type: 'ready' }
  | { readonly type: 'capacity'; readonly served: number; readonly seconds: number; readonly cost: GeneratorCost }
  | {
    readonly type: 'flood';
    /** Latencies (ms) of the answers, by status (0: no answer). */
    readonly latencies: Record<string, number[]>;
    /** How many requests ended each way (overload-requests.ts's outcomes: status codes, timeouts, GOAWAY, ...). */
    readonly outcomes: Record<string, number>;
    /** Requests the generator could not send (their session refused the stream); counted among the outcomes. */
    readonly notSent: number;
    /** Sessions opened over the flood: for more streams than those open could take, or in place of ones that ended. */
    readonly sessionsOpened: number;
    /** Requests sent per second over the sending period. */
    readonly sentPerSecond: number;
    readonly seconds: number;
    /** Seconds from the start to the last answer. */
    readonly drained: number;
    /** How late each request was sent against its schedule: p50 and p99, ms. */
    readonly lagP50: number;
    readonly lagP99: number;
    readonly cost: GeneratorCost;
  };

const options = JSON.parse(process.argv[2] ?? '{}') as FloodOptions;
const say = (m: FloodReply): void => void process.send?.(m);
const sessions = sessionPool(options.url, options.tls, options.sessions);
const get = (path: string, headers: Record<string, string>): Promise<Sample> => sessions.get(path, headers);

/** Measures the generator's own cost around `work`. */
async function costed<T>(work: () => Promise<T>): Promise<[T, GeneratorCost]> {
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return [value, { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, busy: performance.eventLoopUtilization(loop).utilization }];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function capacity(c: Extract<FloodCommand, { type: 'capacity' }>): Promise<void> {
  const [served, cost] = await costed(async () => {
    let n = 0;
    const end = performance.now() + c.seconds * 1000;
    await Promise.all(Array.from({ length: c.clients }, async () => {
      while (performance.now() < end) if ((await get(c.path, c.headers)).status === 200) n++;
    }));
    return n;
  });
  say({ type: 'capacity', served, seconds: cost.wallMs / 1000, cost });
}

const rank = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function flood(c: Extract<FloodCommand, { type: 'flood' }>): Promise<void> {
  const pending: Promise<Sample>[] = [];
  const openedBefore = sessions.opened();
  const lags: number[] = [];
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  let sending = 0;
  for (;;) {
    sending = performance.now() - started;
    if (sending >= c.seconds * 1000) break;
    // Open loop: every request whose moment has come is sent now, however the earlier ones fare.
    const due = Math.floor((sending / 1000) * c.rate);
    while (pending.length < due) {
      lags.push(sending - (pending.length / c.rate) * 1000);
      pending.push(get(c.path, c.headers));
    }
    await sleep(1);
  }
  // The generator's cost while it sent: afterwards it only waits for answers, which would water the figure down.
  const used = process.cpuUsage(cpu);
  const cost: GeneratorCost = { cpuMs: (used.user + used.system) / 1000, wallMs: sending, busy: performance.eventLoopUtilization(loop).utilization };
  const answers = await Promise.all(pending);
  const latencies: Record<string, number[]> = {};
  const outcomes: Record<string, number> = {};
  let unsent = 0;
  for (const a of answers) {
    outcomes[a.outcome] = (outcomes[a.outcome] ?? 0) + 1;
    if (notSent(a.outcome)) unsent++;
    else (latencies[String(a.status)] ??= []).push(a.ms);
  }
  lags.sort((a, b) => a - b);
  say({
    type: 'flood', latencies, outcomes, notSent: unsent, sessionsOpened: sessions.opened() - openedBefore,
    sentPerSecond: (answers.length - unsent) / (sending / 1000), seconds: sending / 1000,
    drained: (answers.reduce((last, a) => Math.max(last, a.at), started) - started) / 1000,
    lagP50: rank(lags, 0.5), lagP99: rank(lags, 0.99), cost,
  });
}

process.on('message', (c: FloodCommand) => {
  if (c.type === 'capacity') void capacity(c);
  else if (c.type === 'flood') void flood(c);
  else {
    sessions.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
say({ type: 'ready' });
