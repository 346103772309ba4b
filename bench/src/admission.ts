/**
 * Admission's cost on creates, every figure beside a server without admission measured in the same run: creates/s
 * of configmaps by 64 keep-alive HTTPS clients against
 *
 * - a server with every admission plugin disabled (the baseline),
 * - a server with the default plugin set (goal: at least 0.9 of the baseline),
 * - servers with the default set and 1 and 3 no-op validating webhooks matching the creates (goal for one: at
 *   least 0.5), the webhook a separate process answering over HTTPS on loopback.
 *
 * The four servers run side by side and are measured in interleaved rounds, so drift of the shared machine
 * touches each alike.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { defaultOnPlugins } from 'svc-apiserver/admission/plugin-order';
import { pluginFactories } from 'svc-apiserver/admission/plugins/index';
import { madeName } from 'svc-apiserver/admission/plugin-configuration';
import { defaultAdmissionFlags } from 'svc-apiserver/admission/plugin';
import { admissionMetrics } from 'svc-apiserver/admission/admission-metrics';
import { createMetricsRegistry } from 'svc-apiserver/metrics/metrics-registry';
import { createCa, issueLeaf } from 'svc-apiserver/pki/certificates';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import type { NodeChild } from '@svc-apiserver/testing/node-child';
import { fmt, isMain, percentile, startBenchModule } from './support.js';

const names = namesFor('svc');
const group = names.group('admissionregistration');
const json = { 'content-type': 'application/json', accept: 'application/json' };

/** The default-on plugins this server knows: disabling them all leaves no admission. */
function defaultPluginNames(): string[] {
  const init = { configuration: () => undefined, flags: defaultAdmissionFlags, metrics: admissionMetrics(createMetricsRegistry()) };
  return pluginFactories.map((make) => madeName(make(names, init))).filter((n) => defaultOnPlugins.has(n));
}

interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** One phase's raw counts. */
interface Phase {
  readonly ops: number;
  readonly seconds: number;
  readonly errors: number;
  readonly latencies: number[];
}

async function post(client: RestClient, path: string, body: unknown): Promise<void> {
  const r = await client.raw({ method: 'POST', path, headers: json, body: JSON.stringify(body) });
  if (!r.ok || r.value.status !== 201) throw new Error(`POST ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
}

/** Creates of configmaps from `workers` for `ms`; names carry `phase` so phases never collide. */
async function creates(workers: readonly RestClient[], ms: number, phase: string): Promise<Phase> {
  await Promise.all(workers.map((c) => c.raw({ method: 'GET', path: '/version', headers: { accept: 'application/json' } })));
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(workers.map(async (c, w) => {
    for (let i = 0; performance.now() < end; i++) {
      const t0 = performance.now();
      const r = await c.raw({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: json,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${phase}-${w}-${i}` }, data: { k: 'v'.repeat(64) } }) });
      latencies.push(performance.now() - t0);
      if (!r.ok || r.value.status !== 201) errors++;
    }
  }));
  return { ops: latencies.length - errors, seconds: (performance.now() - start) / 1000, errors, latencies };
}

/** A server started with `flags`, its admin client and `clients` workers. */
async function startTarget(dir: string, flags: readonly string[], clients: number): Promise<{ server: LaunchedServer; admin: RestClient; workers: RestClient[] }> {
  const server = await launchServer({ dataDir: dir, extraArgs: flags });
  const conn = loadKubeconfig({ path: server.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  const admin = createClient(conn.value);
  await post(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const workers = Array.from({ length: clients }, () => createClient(conn.value, { maxSockets: 1, timeoutMs: 30_000 }));
  return { server, admin, workers };
}

/** A ValidatingWebhookConfiguration of `count` no-op webhooks on configmap creates. */
function noopWebhooks(name: string, count: number, port: number, caBundle: string): unknown {
  return {
    apiVersion: `${group}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name },
    webhooks: Array.from({ length: count }, (_, i) => ({
      name: `noop-${i}.bench.example.com`, admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy: 'Fail',
      clientConfig: { url: `https://127.0.0.1:${port}/validate`, caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })),
  };
}

/** Runs the comparison and returns the report lines. */
export async function admissionBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-admission-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const open: RestClient[] = [];
  try {
    const ca = await createCa('bench-webhook-ca');
    const serving = await issueLeaf(ca, { commonName: 'noop-webhook', usage: 'server', sans: ['127.0.0.1'] });
    writeFileSync(join(dir, 'webhook.crt'), serving.certPem);
    writeFileSync(join(dir, 'webhook.key'), serving.keyPem);
    const webhook: { child: NodeChild; match: RegExpExecArray } = await startBenchModule('noop-webhook-server',
      [`--cert=${join(dir, 'webhook.crt')}`, `--key=${join(dir, 'webhook.key')}`], /noop-webhook: serving on (\d+)/);
    children.push(webhook.child);
    const port = Number(webhook.match[1]);
    const caBundle = Buffer.from(ca.certPem).toString('base64');

    // Four servers side by side, measured in interleaved rounds so that the machine's drift touches each alike.
    const none = await startTarget(join(dir, 'none'), [`--disable-admission-plugins=${defaultPluginNames().join(',')}`], clients);
    const plain = await startTarget(join(dir, 'default'), [], clients);
    const oneHook = await startTarget(join(dir, 'one'), [], clients);
    const threeHooks = await startTarget(join(dir, 'three'), [], clients);
    const targets = [none, plain, oneHook, threeHooks];
    for (const t of targets) {
      children.push(t.server);
      open.push(t.admin, ...t.workers);
    }
    await post(oneHook.admin, `/apis/${group}/v1/validatingwebhookconfigurations`, noopWebhooks('one', 1, port, caBundle));
    await post(threeHooks.admin, `/apis/${group}/v1/validatingwebhookconfigurations`, noopWebhooks('three', 3, port, caBundle));
    const rounds = 4;
    const totals = targets.map(() => ({ ops: 0, seconds: 0, errors: 0, latencies: [] as number[] }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const f = await creates(t.workers, (seconds * 1000) / rounds, `r${r}`);
        const total = totals[i]!;
        total.ops += f.ops;
        total.seconds += f.seconds;
        total.errors += f.errors;
        total.latencies.push(...f.latencies);
      }
    }
    const [baseline, defaults, one, three] = totals.map((t): Figures => {
      const sorted = t.latencies.sort((a, b) => a - b);
      return { perSecond: t.ops / t.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: t.errors };
    }) as [Figures, Figures, Figures, Figures];

    const line = (label: string, f: Figures, goal?: number) =>
      `${label.padEnd(28)}${fmt(f.perSecond).padStart(8)} creates/s (p50/p99 ${fmt(f.p50, 1)}/${fmt(f.p99, 1)} ms)   ratio ${fmt(f.perSecond / baseline.perSecond, 3)}` +
      (goal === undefined ? '' : ` (goal ≥ ${goal})`);
    return [
      `admission: ${clients} HTTPS clients creating configmaps, ${seconds}s per phase, beside a server without admission plugins`,
      line('no admission plugins', baseline),
      line('default plugins', defaults, 0.9),
      line('default + 1 no-op webhook', one, 0.5),
      line('default + 3 no-op webhooks', three),
      `errors: none ${baseline.errors}, default ${defaults.errors}, 1 webhook ${one.errors}, 3 webhooks ${three.errors}`,
    ];
  } finally {
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' } } });
  process.stdout.write(`${(await admissionBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'))).join('\n')}\n`);
}
