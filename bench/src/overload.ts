/**
 * Overload with API Priority and Fairness: a server child with its default limits, a user of the global-default
 * priority level (an administrator impersonating `bench-user`) reading a configmap
 *
 * 1. closed-loop from 64 concurrent HTTP/2 streams for a moment: the server's capacity C for that user, in requests/s;
 * 2. open-loop at 10 × C over HTTP/2 for a few seconds, while a probe reads /livez (anonymous, the probes
 *    FlowSchema) and an administrator (exempt) reads the same configmap every 20 ms.
 *
 * Figures and goals: the excess answered 429 within 100 ms (p99 of the 429s), /livez p99 ≤ 100 ms, the exempt
 * GET's p99 ≤ 3 × its idle p99. The offered rate reached is printed too: the load comes from this process, on the
 * same machine.
 *
 * Flags: --seconds=<overload phase, default 3> --clients=<64>
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { fmt, runStandalone, percentile, sleep } from './support.js';
import { post, startTarget } from './create-load.js';

const rbac = 'rbac.authorization.svc.io';
const target = '/api/v1/namespaces/bench/configmaps/target';

interface Sample {
  readonly status: number;
  readonly ms: number;
  /** When the answer came (performance.now()). */
  readonly at: number;
}

function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = session.request({ ':path': path, accept: 'application/json', ...headers });
    let status = 0;
    req.on('response', (h) => (status = Number(h[':status'])));
    req.resume();
    req.on('end', () => resolve({ status, ms: performance.now() - started, at: performance.now() }));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, at: performance.now() }));
    req.end();
  });
}

/** Reads `path` every `everyMs` until `until()`, one at a time; the latencies. */
async function probe(session: ClientHttp2Session, path: string, everyMs: number, until: () => boolean, headers: Record<string, string> = {}): Promise<Sample[]> {
  const out: Sample[] = [];
  while (!until()) {
    out.push(await h2get(session, path, headers));
    await sleep(everyMs);
  }
  return out;
}

const p99 = (samples: readonly Sample[]): number => percentile([...samples].map((s) => s.ms).sort((a, b) => a - b), 99);

/** Runs the overload phases and returns the report lines. */
export async function overloadBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-overload-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const open: RestClient[] = [];
  const sessions: ClientHttp2Session[] = [];
  try {
    const server = await startTarget(join(dir, 'server'), []);
    children.push(server.server);
    open.push(server.admin);
    await post(server.admin, '/api/v1/namespaces/bench/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { k: 'v' } });
    await post(server.admin, `/apis/${rbac}/v1/clusterrolebindings`, {
      apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'bench-user' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'bench-user' }],
    });
    const asUser = { 'Impersonate-User': 'bench-user' };
    for (let i = 0; i < 100; i++) {
      const r = await server.admin.raw({ method: 'GET', path: target, headers: asUser });
      if (r.ok && r.value.status === 200) break;
      await sleep(50);
    }

    const conn = loadKubeconfig({ path: server.server.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const { server: url, ca, cert, key } = conn.value;
    const tls = { ...(ca === undefined ? {} : { ca }), ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }) };
    const admin = connect(url, tls);
    const anonymous = connect(url, ca === undefined ? {} : { ca });
    const flooders = Array.from({ length: 4 }, () => connect(url, tls));
    sessions.push(admin, anonymous, ...flooders);

    // 1. Capacity: closed loop of `clients` concurrent streams over the same HTTP/2 sessions the flood uses.
    let served = 0;
    const capacityStart = performance.now();
    const capacityEnd = capacityStart + 2000;
    await Promise.all(Array.from({ length: clients }, async (_, i) => {
      while (performance.now() < capacityEnd) {
        if ((await h2get(flooders[i % flooders.length]!, target, asUser)).status === 200) served++;
      }
    }));
    const capacity = served / ((performance.now() - capacityStart) / 1000);

    // Idle figures of the probes.
    let idleDone = false;
    const idleTimer = setTimeout(() => (idleDone = true), 1000);
    const [idleExempt] = await Promise.all([probe(admin, target, 20, () => idleDone), probe(anonymous, '/livez', 20, () => idleDone)]);
    clearTimeout(idleTimer);

    // 2. Open loop at 10 × capacity.
    const offered = 10 * capacity;
    const flood: Promise<Sample>[] = [];
    let done = false;
    const started = performance.now();
    const probes = Promise.all([probe(admin, target, 20, () => done), probe(anonymous, '/livez', 20, () => done)]);
    let sent = 0;
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * offered);
      for (; sent < due; sent++) flood.push(h2get(flooders[sent % flooders.length]!, target, asUser));
      await sleep(1);
    }
    const elapsed = (performance.now() - started) / 1000;
    const answers = await Promise.all(flood);
    done = true;
    const [exempt, livez] = await probes;
    const ok = answers.filter((a) => a.status === 200);
    const rejected = answers.filter((a) => a.status === 429);
    const other = answers.length - ok.length - rejected.length;
    const idle = p99(idleExempt);
    const drained = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
    return [
      `overload: capacity ${fmt(capacity)} GETs/s of one global-default user (${clients} closed-loop HTTP/2 streams); then ${seconds}s offered at 10× over HTTP/2`,
      `offered ${fmt(sent / elapsed)} req/s (goal ${fmt(offered)}) for ${fmt(elapsed, 1)}s: ${ok.length} served (${fmt(ok.length / drained)}/s, the last ${fmt(drained, 1)}s after the start), ${rejected.length} answered 429, ${other} other`,
      `429 latency p50/p99 ${fmt(percentile(rejected.map((r) => r.ms).sort((a, b) => a - b), 50), 1)}/${fmt(p99(rejected), 1)} ms (goal p99 ≤ 100)`,
      `/livez p99 ${fmt(p99(livez), 1)} ms over ${livez.length} probes (goal ≤ 100); all 200: ${livez.every((s) => s.status === 200)}`,
      `exempt GET p99 ${fmt(p99(exempt), 1)} ms beside ${fmt(idle, 1)} ms idle: ${fmt(p99(exempt) / idle, 2)}× (goal ≤ 3×); all 200: ${exempt.every((s) => s.status === 200)}`,
    ];
  } finally {
    for (const s of sessions) s.close();
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, overloadBench);
