/**
 * The list and watch benchmark (issue: lists and watches at scale), each figure beside a raw node:https baseline
 * measured in the same run on the same machine, loopback only, bounded in time (well under 3 minutes):
 *
 * - list of 3,000 configmaps in a namespace (p50/p99) vs a raw server running `JSON.stringify` of the same items;
 * - list of 100,000 configmaps: time to the first body byte, total time, server RSS growth; same baseline;
 * - watch fan-out to 1,000 watchers at 100 and at 10 events/s: p50/p99 from the write to the client, events lost,
 *   duplicated or reordered, vs a raw chunked fan-out that serializes each event once. The same watches serve both
 *   rates; writes go one at a time for at most 1.5× the phase's length, so a server that cannot keep the rate
 *   writes fewer events, and the rate reached is printed beside the figures;
 * - 10,000 idle watchers (HTTP/2 streams): server RSS growth, vs the raw server holding as many streams.
 *
 * The stored objects are written straight into the server's SQLite file before it starts (the load itself is not
 * what is measured). Run alone: `node bench/dist/list-watch.js [--watchers=1000] [--idle-watchers=10000]
 * [--big=100000] [--small=3000] [--fan-seconds=6]`; `npm run bench` runs it after the request benchmark.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import http2 from 'node:http2';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadKubeconfig, type ConnectionConfig } from '@svc-apiserver/client';
import { openSqliteBackend } from 'svc-apiserver/storage/sqlite/sqlite-backend';
import { benchConfigMap } from './list-watch-items.js';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { fmt as fixed, isMain, percentile, sleep, startBenchModule } from './support.js';


const { values } = parseArgs({
  options: { watchers: { type: 'string' }, 'idle-watchers': { type: 'string' }, big: { type: 'string' }, 'fan-seconds': { type: 'string' }, small: { type: 'string' } },
  // Also imported by the request benchmark, whose own flags are not ours.
  strict: false,
});
const watcherCount = Number(values.watchers ?? '1000');
const idleCount = Number(values['idle-watchers'] ?? '10000');
const bigCount = Number(values.big ?? '100000');
const smallCount = Number(values.small ?? '3000');
const fanSeconds = Number(values['fan-seconds'] ?? '6');

/** Resident set size of a process in MB (Linux). */
function rssMb(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Progress on stderr, so a long run shows where it is. */
const benchStart = performance.now();
const progress = (message: string): void => void process.stderr.write(`list-watch bench: ${((performance.now() - benchStart) / 1000).toFixed(1)} s: ${message}\n`);
const fmt = (n: number, digits = 1): string => fixed(n, digits);
const now = (): number => performance.timeOrigin + performance.now();

interface Target {
  readonly label: string;
  readonly base: string;
  readonly pid: number | undefined;
  readonly agent: https.Agent;
  readonly tls: https.RequestOptions;
  listPath(count: number): string;
  watchPath: string;
  write(seq: number, t: number): Promise<void>;
}

/** One GET: time to headers, to the first body byte and to the end. */
function timedGet(target: Target, path: string): Promise<{ firstByte: number; total: number; bytes: number; status: number }> {
  const t0 = performance.now();
  return new Promise((resolveGet, reject) => {
    const req = https.request(`${target.base}${path}`, { ...target.tls, agent: target.agent, headers: { accept: 'application/json' } }, (res) => {
      let first = NaN;
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (Number.isNaN(first)) first = performance.now() - t0;
        bytes += c.length;
      });
      res.on('end', () => resolveGet({ firstByte: first, total: performance.now() - t0, bytes, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listSmall(target: Target): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 5; i++) await timedGet(target, target.listPath(smallCount));
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const r = await timedGet(target, target.listPath(smallCount));
    if (r.status !== 200) throw new Error(`${target.label} list: ${r.status}`);
    times.push(r.total);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function listBig(target: Target): Promise<{ cold: { firstByte: number; total: number }; warm: { firstByte: number; total: number }; rssGrowth: number; mb: number }> {
  const before = rssMb(target.pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(target.pid)); }, 20);
  const cold = await timedGet(target, target.listPath(bigCount));
  if (cold.status !== 200) throw new Error(`${target.label} big list: ${cold.status}`);
  let warm = await timedGet(target, target.listPath(bigCount));
  const third = await timedGet(target, target.listPath(bigCount));
  if (third.total < warm.total) warm = third;
  clearInterval(sampler);
  return { cold, warm, rssGrowth: peak - before, mb: cold.bytes / 1e6 };
}

let phaseCounter = 0;

interface FanResult { p50: number; p99: number; received: number; expected: number; lost: number; duplicated: number; reordered: number; rate: number }

/** What one measuring phase counts; the watches' data handlers feed the current one. */
interface FanPhase {
  readonly firstSeq: number;
  readonly latencies: number[];
  /** Per watcher: the next sequence number expected, -1 before the first. */
  readonly next: number[];
  lost: number;
  duplicated: number;
  reordered: number;
}

/** `count` open HTTP/1.1 watches (one TLS connection each), measured phase after phase. */
interface FanWatches {
  /** Drives `rate` events/s for `seconds` (writes one at a time, so a saturated server gets fewer), then measures. */
  measure(rate: number, seconds: number): Promise<FanResult>;
  close(): void;
}

/** Opens `count` watches on `target`; they stay open for every rate measured. */
async function openFanWatches(target: Target, count: number): Promise<FanWatches> {
  const streams: IncomingMessage[] = [];
  const requests: ReturnType<typeof https.request>[] = [];
  let current: FanPhase | undefined;
  const open = (i: number): Promise<void> => new Promise((resolveOpen, reject) => {
    const req = https.request(`${target.base}${target.watchPath}`, { ...target.tls, agent: false, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${target.label} watch: ${res.statusCode}`));
      streams.push(res);
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const phase = current;
          if (phase === undefined) continue;
          const seqMatch = /"seq":"(\d+)"/.exec(line);
          const tMatch = /"t":"([\d.]+)"/.exec(line);
          if (!seqMatch || !tMatch) continue;
          const seq = Number(seqMatch[1]);
          // Every phase numbers its events above all earlier ones: a late event of an earlier phase never counts.
          if (seq < phase.firstSeq) continue;
          phase.latencies.push(now() - Number(tMatch[1]));
          const expected = phase.next[i]! < 0 ? phase.firstSeq : phase.next[i]!;
          if (seq < expected) {
            if (seq === expected - 1) phase.duplicated++;
            else phase.reordered++;
            continue;
          }
          phase.lost += seq - expected;
          phase.next[i] = seq + 1;
        }
      });
      resolveOpen();
    });
    req.on('error', reject);
    requests.push(req);
    req.end();
  });
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(i + j)));
  progress(`${target.label}: ${count} watches open`);
  await sleep(500);
  return {
    async measure(rate, seconds) {
      const phase: FanPhase = { firstSeq: (phaseCounter += 1) * 1_000_000, latencies: [], next: new Array(count).fill(-1), lost: 0, duplicated: 0, reordered: 0 };
      current = phase;
      const planned = Math.round(rate * seconds);
      const start = performance.now();
      // Writes go one at a time (concurrent patches of one object could commit out of their sequence order); a
      // server that cannot keep the rate writes fewer within the phase's bound, and the rate reached is reported.
      const deadline = start + seconds * 1500;
      let written = 0;
      for (let s = 0; s < planned && performance.now() < deadline; s++) {
        const due = start + (s * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await target.write(phase.firstSeq + s, now());
        written++;
      }
      const elapsed = (performance.now() - start) / 1000;
      await sleep(2000);
      current = undefined;
      for (const n of phase.next) phase.lost += n < 0 ? written : phase.firstSeq + written - n;
      const latencies = phase.latencies.sort((a, b) => a - b);
      return {
        p50: percentile(latencies, 50), p99: percentile(latencies, 99), received: latencies.length, expected: written * count,
        lost: phase.lost, duplicated: phase.duplicated, reordered: phase.reordered, rate: written / elapsed,
      };
    },
    close() {
      for (const r of requests) r.destroy();
      for (const s of streams) s.destroy();
    },
  };
}

/** Opens `count` idle watches as HTTP/2 streams over 100 sessions; the server's RSS growth. */
async function idleWatchers(target: Target, count: number): Promise<{ rssGrowth: number; opened: number }> {
  const before = rssMb(target.pid);
  const sessions: http2.ClientHttp2Session[] = [];
  let opened = 0;
  const perSession = Math.ceil(count / 100);
  for (let s = 0; s < 100 && opened < count; s++) {
    const session = http2.connect(target.base, target.tls as http2.SecureClientSessionOptions);
    session.on('error', () => {});
    sessions.push(session);
    const batch = Math.min(perSession, count - opened);
    await Promise.all(Array.from({ length: batch }, () => new Promise<void>((resolveStream) => {
      const req = session.request({ ':path': target.watchPath, accept: 'application/json' });
      req.on('response', () => resolveStream());
      req.on('error', () => resolveStream());
      req.on('data', () => {});
    })));
    opened += batch;
  }
  await sleep(1500);
  const after = rssMb(target.pid);
  for (const s of sessions) s.destroy();
  return { rssGrowth: after - before, opened };
}

/** Writes `counts` configmaps per namespace (and the fan-out object) straight into a SQLite data dir. */
export async function populate(dataDir: string, counts: Readonly<Record<string, number>>): Promise<void> {
  const backend = openSqliteBackend({ path: join(dataDir, 'state.db') });
  const put = async (ns: string, count: number): Promise<void> => {
    for (let i = 0; i < count; i += 2000) {
      await Promise.all(Array.from({ length: Math.min(2000, count - i) }, (_, j) => {
        const name = `item-${i + j}`;
        const o = benchConfigMap(name, ns, 0);
        delete (o['metadata'] as Record<string, unknown>)['resourceVersion'];
        return backend.create(`/registry/core/configmaps/${ns}/${name}`, JSON.stringify(o));
      }));
    }
  };
  for (const ns of Object.keys(counts)) {
    await backend.create(`/registry/core/namespaces/${ns}`, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, uid: `ns-${ns}`, creationTimestamp: '2024-01-01T00:00:00Z' }, spec: { finalizers: ['svc'] }, status: { phase: 'Active' } }));
  }
  for (const [ns, count] of Object.entries(counts)) await put(ns, count);
  const fan = benchConfigMap('fan', 'bench-fan', 0);
  delete (fan['metadata'] as Record<string, unknown>)['resourceVersion'];
  await backend.create('/registry/core/configmaps/bench-fan/fan', JSON.stringify(fan));
  await backend.close();
}

function row(label: string, value: string, base: string, ratio: string, goal: string): string {
  return `${label.padEnd(34)}${value.padStart(12)}   raw ${base.padStart(12)}   ratio ${ratio.padStart(6)}   ${goal}`;
}

/** A process the bench stops when it ends. */
interface Stoppable {
  stop(): Promise<unknown>;
}

/** A server child on a data dir populated with `counts` configmaps per namespace. */
async function startTarget(counts: Readonly<Record<string, number>>, children: Stoppable[], dirs: string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-lw-'));
  dirs.push(dataDir);
  await populate(dataDir, counts);
  const api = await launchServer({ dataDir, storage: 'sqlite', readyTimeoutMs: 120_000 });
  children.push(api);
  const conn = loadKubeconfig({ path: api.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  return { dataDir, api, conn: conn.value };
}

export async function listWatchBench(): Promise<string[]> {
  const started = performance.now();
  const children: Stoppable[] = [];
  const dirs: string[] = [];
  const agents: https.Agent[] = [];
  const lines: string[] = [];
  try {
    progress('writing the objects into the stores');
    // Lists and watches run against two servers: the watch figures are not those of a store holding 100k objects
    // (whose controllers, not the watch path, would then dominate every write).
    const listing = await startTarget({ 'bench-list': smallCount, 'bench-big': bigCount, 'bench-fan': 1 }, children, dirs);
    const c: ConnectionConfig = listing.conn;
    const tls: https.RequestOptions = { ...(c.ca ? { ca: c.ca } : {}), ...(c.cert ? { cert: c.cert } : {}), ...(c.key ? { key: c.key } : {}) };
    const dataDir = listing.dataDir;
    progress('starting the servers');
    const raw = await startBenchModule('raw-list-watch-server', [`--cert=${join(dataDir, 'serving.crt')}`, `--key=${join(dataDir, 'serving.key')}`, `--ca=${join(dataDir, 'ca.crt')}`], /raw-list-watch: serving on (\d+)/);
    children.push(raw.child);
    const agent = (): https.Agent => {
      const a = new https.Agent({ keepAlive: true, maxSockets: 4 });
      agents.push(a);
      return a;
    };
    const writeAgent = agent();
    const post = (base: string, method: string, path: string, body?: string, contentType = 'application/json', auth = tls): Promise<void> => new Promise((res, rej) => {
      const req = https.request(`${base}${path}`, { ...auth, agent: writeAgent, method, headers: { accept: 'application/json', ...(body ? { 'content-type': contentType } : {}) } }, (r) => {
        r.resume();
        r.on('end', () => (r.statusCode && r.statusCode < 300 ? res() : rej(new Error(`${method} ${path}: ${r.statusCode}`))));
      });
      req.on('error', rej);
      req.end(body);
    });
    const apiTarget = (conn: ConnectionConfig, pid: number | undefined): Target => {
      const auth: https.RequestOptions = { ...(conn.ca ? { ca: conn.ca } : {}), ...(conn.cert ? { cert: conn.cert } : {}), ...(conn.key ? { key: conn.key } : {}) };
      return {
        label: 'svc-apiserver', base: conn.server, pid, agent: agent(), tls: auth,
        listPath: (n) => (n === bigCount ? '/api/v1/namespaces/bench-big/configmaps' : '/api/v1/namespaces/bench-list/configmaps'),
        watchPath: '/api/v1/namespaces/bench-fan/configmaps?watch=1&resourceVersion=0',
        write: (seq, t) => post(conn.server, 'PATCH', '/api/v1/namespaces/bench-fan/configmaps/item-0', JSON.stringify({ data: { seq: String(seq), t: String(t) } }), 'application/merge-patch+json', auth),
      };
    };
    const server = apiTarget(c, listing.api.child.pid);
    const rawBase = `https://127.0.0.1:${raw.match[1]}`;
    const baseline: Target = {
      label: 'raw', base: rawBase, pid: raw.child.process.pid, agent: agent(), tls,
      listPath: (n) => `/list?n=${n}`,
      watchPath: '/watch',
      write: (seq, t) => post(rawBase, 'POST', `/event?seq=${seq}&t=${t}`),
    };
    // The watch cache of configmaps is built by the first read; the figures are the steady state after it.
    const warm = await timedGet(server, '/api/v1/namespaces/bench-fan/configmaps?resourceVersion=0');
    if (warm.status !== 200) throw new Error(`warm-up list: ${warm.status}`);
    lines.push(`svc-apiserver list-watch bench: ${smallCount} / ${bigCount} configmaps, ${watcherCount} watchers, ${idleCount} idle watchers, loopback`);

    progress('lists');
    const smallApi = await listSmall(server);
    const smallRaw = await listSmall(baseline);
    lines.push(row(`list ${smallCount} p50 ms`, fmt(smallApi.p50), fmt(smallRaw.p50), fmt(smallApi.p50 / smallRaw.p50, 2), ''));
    lines.push(row(`list ${smallCount} p99 ms`, fmt(smallApi.p99), fmt(smallRaw.p99), fmt(smallApi.p99 / smallRaw.p99, 2), 'goal ≤ 50 ms and below raw'));

    const bigApi = await listBig(server);
    const bigRaw = await listBig(baseline);
    lines.push(row(`list ${bigCount} first byte ms (cold)`, fmt(bigApi.cold.firstByte), fmt(bigRaw.cold.firstByte), fmt(bigApi.cold.firstByte / bigRaw.cold.firstByte, 2), 'goal ≤ 100 ms'));
    lines.push(row(`list ${bigCount} first byte ms (warm)`, fmt(bigApi.warm.firstByte), fmt(bigRaw.warm.firstByte), fmt(bigApi.warm.firstByte / bigRaw.warm.firstByte, 2), ''));
    lines.push(row(`list ${bigCount} total ms (cold)`, fmt(bigApi.cold.total), fmt(bigRaw.cold.total), fmt(bigApi.cold.total / bigRaw.cold.total, 2), 'goal ≤ 1500 ms'));
    lines.push(row(`list ${bigCount} total ms (warm)`, fmt(bigApi.warm.total), fmt(bigRaw.warm.total), fmt(bigApi.warm.total / bigRaw.warm.total, 2), ''));
    lines.push(row(`list ${bigCount} RSS growth MB`, fmt(bigApi.rssGrowth), fmt(bigRaw.rssGrowth), fmt(bigApi.rssGrowth / bigRaw.rssGrowth, 2), `(body ${fmt(bigApi.mb)} MB)`));
    await children.shift()!.stop();

    progress('starting the watch server');
    const watching = await startTarget({ 'bench-fan': 1 }, children, dirs);
    const watchServer = apiTarget(watching.conn, watching.api.child.pid);
    const results = new Map<string, FanResult>();
    // Each target's watches are opened once and measured at both rates (opening 1,000 TLS connections is slow).
    for (const target of [watchServer, baseline]) {
      progress(`opening ${watcherCount} watches on ${target.label}`);
      const w = await openFanWatches(target, watcherCount);
      for (const rate of [100, 10]) {
        progress(`fan-out at ${rate}/s on ${target.label}`);
        results.set(`${target.label}@${rate}`, await w.measure(rate, fanSeconds));
      }
      w.close();
    }
    for (const rate of [100, 10]) {
      const a = results.get(`${watchServer.label}@${rate}`)!;
      const b = results.get(`${baseline.label}@${rate}`)!;
      const goal = rate === 100 ? 'goal p99 ≤ 1.3× raw, nothing lost' : 'goal p99 ≤ 100 ms, nothing lost';
      lines.push(row(`fan-out ${watcherCount}@${rate}/s p50 ms`, fmt(a.p50), fmt(b.p50), fmt(a.p50 / b.p50, 2), ''));
      lines.push(row(`fan-out ${watcherCount}@${rate}/s p99 ms`, fmt(a.p99), fmt(b.p99), fmt(a.p99 / b.p99, 2), goal));
      lines.push(`  events: server ${a.received}/${a.expected} received (${fmt(a.rate)}/s written), lost ${a.lost}, duplicated ${a.duplicated}, reordered ${a.reordered}; raw ${b.received}/${b.expected} (${fmt(b.rate)}/s), lost ${b.lost}, duplicated ${b.duplicated}, reordered ${b.reordered}`);
    }

    progress('idle watchers');
    const idleApi = await idleWatchers(watchServer, idleCount);
    const idleRaw = await idleWatchers(baseline, idleCount);
    lines.push(row(`${idleCount} idle watchers RSS growth MB`, fmt(idleApi.rssGrowth), fmt(idleRaw.rssGrowth), fmt(idleApi.rssGrowth / idleRaw.rssGrowth, 2), `goal ≤ 500 MB (opened ${idleApi.opened})`));
    lines.push(`watch server RSS at the end: ${fmt(rssMb(watchServer.pid))} MB; list-watch bench took ${fmt((performance.now() - started) / 1000)} s`);
    return lines;
  } finally {
    for (const a of agents) a.destroy();
    await Promise.all(children.map((ch) => ch.stop()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const lines = await listWatchBench();
  process.stdout.write(lines.join('\n') + '\n');
}
