/**
 * The expression language's cost on writes, each figure beside a baseline measured in the same run:
 *
 * - creates/s of custom objects whose CRD schema carries five validation rules, beside a CRD of the same schema
 *   without rules on the same server (goal: at least 0.8);
 * - creates/s of configmaps on a server with one ValidatingAdmissionPolicy bound to them, beside a server with the
 *   same gates and no policy (goal: at least 0.85).
 *
 * 64 keep-alive HTTPS clients; the phases run in interleaved rounds so drift of the shared machine touches each alike.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, runStandalone } from './support.js';

const names = namesFor('svc');
const reg = names.group('admissionregistration');
const json = { 'content-type': 'application/json', accept: 'application/json' };
const group = 'bench.example.com';

async function send(client: RestClient, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await client.raw({ method, path, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.error.message}`);
  return { status: r.value.status, body: JSON.parse(r.value.body.toString() || '{}') };
}

/** A CRD of `plural` whose spec has five validation rules, or none. */
function crd(plural: string, kind: string, withRules: boolean): unknown {
  const v = (rule: string) => (withRules ? { 'x-kubernetes-validations': [{ rule }] } : {});
  return {
    apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, kind },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object', ...v('self.replicas <= self.maxReplicas'),
                properties: {
                  replicas: { type: 'integer', ...v('self >= 0') },
                  maxReplicas: { type: 'integer' },
                  name: { type: 'string', maxLength: 63, ...v("self.matches('^[a-z0-9-]+$')") },
                  ports: { type: 'array', maxItems: 16, items: { type: 'integer' }, ...v('self.isSorted()') },
                  endpoint: { type: 'string', maxLength: 256, ...v("isURL(self) && url(self).getScheme() == 'https'") },
                },
              },
            },
          },
        },
      }],
    },
  };
}

async function startTarget(dir: string, flags: readonly string[], clients: number): Promise<{ server: LaunchedServer; admin: RestClient; workers: RestClient[] }> {
  const server = await launchServer({ dataDir: dir, extraArgs: flags });
  const conn = loadKubeconfig({ path: server.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  const admin = createClient(conn.value);
  await send(admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const workers = Array.from({ length: clients }, () => createClient(conn.value, { maxSockets: 1, timeoutMs: 30_000 }));
  return { server, admin, workers };
}

/** Creates from every worker for `ms`: objects made by `make(worker, i)` posted to `path`. */
async function creates(workers: readonly RestClient[], ms: number, path: string, make: (w: number, i: number) => unknown): Promise<{ ops: number; seconds: number; errors: number }> {
  let ops = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(workers.map(async (c, w) => {
    for (let i = 0; performance.now() < end; i++) {
      const r = await c.raw({ method: 'POST', path, headers: json, body: JSON.stringify(make(w, i)) });
      if (r.ok && r.value.status === 201) ops++;
      else errors++;
    }
  }));
  return { ops, seconds: (performance.now() - start) / 1000, errors };
}

async function waitFor(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the setup did not take effect');
}

/** Runs both comparisons and returns the report lines. */
export async function celBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cel-'));
  const children: LaunchedServer[] = [];
  const open: RestClient[] = [];
  try {
    const gates = ['--feature-gates=ValidatingAdmissionPolicy=true', `--runtime-config=${reg}/v1alpha1=true`];
    const rulesServer = await startTarget(join(dir, 'rules'), [], clients);
    const policyServer = await startTarget(join(dir, 'policy'), gates, clients);
    const plainServer = await startTarget(join(dir, 'plain'), gates, clients);
    for (const t of [rulesServer, policyServer, plainServer]) {
      children.push(t.server);
      open.push(t.admin, ...t.workers);
    }
    for (const [plural, kind, withRules] of [['plains', 'Plain', false], ['ruleds', 'Ruled', true]] as const) {
      await send(rulesServer.admin, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, crd(plural, kind, withRules));
      await waitFor(async () => (await send(rulesServer.admin, 'GET', `/apis/${group}/v1/namespaces/bench/${plural}`)).status === 200);
    }
    await send(policyServer.admin, 'POST', `/apis/${reg}/v1alpha1/validatingadmissionpolicies`, {
      apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'small-configmaps' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
        validations: [{ expression: '!has(object.data) || size(object.data) <= 8', message: 'at most eight keys' }],
      },
    });
    await send(policyServer.admin, 'POST', `/apis/${reg}/v1alpha1/validatingadmissionpolicybindings`, {
      apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'small-configmaps' },
      spec: { policyName: 'small-configmaps', validationActions: ['Deny'] },
    });
    await waitFor(async () => (await send(policyServer.admin, 'POST', '/api/v1/namespaces/bench/configmaps?dryRun=All', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' }, data: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v'])),
    })).status === 422);

    const object = (kind: string, phase: string) => (w: number, i: number) => ({
      apiVersion: `${group}/v1`, kind, metadata: { name: `${phase}-${w}-${i}` },
      spec: { replicas: 1, maxReplicas: 3, name: 'web-1', ports: [80, 443, 8080], endpoint: 'https://web.example/x' },
    });
    const configMap = (phase: string) => (w: number, i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${phase}-${w}-${i}` }, data: { k: 'v'.repeat(64) } });
    const phases = [
      { label: 'custom objects, no rules', run: (ms: number, p: string) => creates(rulesServer.workers, ms, `/apis/${group}/v1/namespaces/bench/plains`, object('Plain', p)) },
      { label: 'custom objects, five rules', run: (ms: number, p: string) => creates(rulesServer.workers, ms, `/apis/${group}/v1/namespaces/bench/ruleds`, object('Ruled', p)) },
      { label: 'configmaps, no policy', run: (ms: number, p: string) => creates(plainServer.workers, ms, '/api/v1/namespaces/bench/configmaps', configMap(p)) },
      { label: 'configmaps, one policy', run: (ms: number, p: string) => creates(policyServer.workers, ms, '/api/v1/namespaces/bench/configmaps', configMap(p)) },
    ];
    const rounds = 4;
    const totals = phases.map(() => ({ ops: 0, seconds: 0, errors: 0 }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, p] of phases.entries()) {
        const f = await p.run((seconds * 1000) / rounds, `r${r}`);
        totals[i]!.ops += f.ops;
        totals[i]!.seconds += f.seconds;
        totals[i]!.errors += f.errors;
      }
    }
    const rate = totals.map((t) => t.ops / t.seconds);
    const line = (i: number, base: number, goal?: number) =>
      `${phases[i]!.label.padEnd(30)}${fmt(rate[i]!).padStart(8)} creates/s   ratio ${fmt(rate[i]! / rate[base]!, 3)}${goal === undefined ? '' : ` (goal ≥ ${goal})`}`;
    return [
      `expression language: ${clients} HTTPS clients, ${seconds}s per phase`,
      line(0, 0), line(1, 0, 0.8), line(2, 2), line(3, 2, 0.85),
      `errors: ${totals.map((t, i) => `${phases[i]!.label} ${t.errors}`).join(', ')}`,
    ];
  } finally {
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, celBench);
