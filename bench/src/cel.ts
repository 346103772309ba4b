/**
 * The expression language's cost on writes, each figure beside a baseline measured in the same run:
 *
 * - creates/s of custom objects whose CRD schema carries five validation rules, beside a CRD of the same schema
 *   without rules on the same server (goal: at least 0.8);
 * - creates/s of configmaps on a server with one ValidatingAdmissionPolicy bound to them, beside a server with the
 *   same gates and no policy (goal: at least 0.85).
 *
 * 64 keep-alive HTTPS connections of the load generator; the phases run in interleaved rounds so drift of the shared
 * machine touches each alike (many short rounds, about half a second each). Beside each rate, the server's CPU time
 * per create over the same rounds and its ratio to the baseline's, which other work on the machine hardly moves; and
 * for both, the ratios round by round: their median, which a goal is held to, and their spread.
 *
 * Flags: --seconds=<per phase, default 3> --rounds=<n, default one per half second> --clients=<64>
 * --cpu-prof=<dir> (each server under node's CPU profiler, a summary of its measured rounds after the figures)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import type { RestClient } from '@svc-apiserver/client';
import type { LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, runStandalone, type StandaloneOptions } from './support.js';
import { monotonicMicros } from './cpu-profile-summary.js';
import { configMap, createPlan, loadFor, profileLines, startTarget } from './create-load.js';
import type { LoadGenerator } from './load/load-generator.js';
import { cpuColumn, interleavedWithCpu, roundRatioColumns, roundsFor } from './server-cpu.js';

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

async function waitFor(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the setup did not take effect');
}

/** Runs both comparisons and returns the report lines. */
export async function celBench(seconds = 3, clients = 64, options: StandaloneOptions = {}): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cel-'));
  const children: LaunchedServer[] = [];
  const open: RestClient[] = [];
  const generators: LoadGenerator[] = [];
  try {
    const gates = ['--feature-gates=ValidatingAdmissionPolicy=true', `--runtime-config=${reg}/v1alpha1=true`];
    const prof = (label: string) => (options.cpuProfDir === undefined ? undefined : join(options.cpuProfDir, label));
    const rulesServer = await startTarget(join(dir, 'rules'), [], prof('rules'));
    const policyServer = await startTarget(join(dir, 'policy'), gates, prof('policy'));
    const plainServer = await startTarget(join(dir, 'plain'), gates, prof('plain'));
    for (const t of [rulesServer, policyServer, plainServer]) {
      children.push(t.server);
      open.push(t.admin);
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

    const [rulesLoad, policyLoad, plainLoad] = [await loadFor(rulesServer, clients), await loadFor(policyServer, clients), await loadFor(plainServer, clients)];
    generators.push(rulesLoad, policyLoad, plainLoad);
    const object = (kind: string) => (name: string) => ({
      apiVersion: `${group}/v1`, kind, metadata: { name },
      spec: { replicas: 1, maxReplicas: 3, name: 'web-1', ports: [80, 443, 8080], endpoint: 'https://web.example/x' },
    });
    const phases = [
      { label: 'custom objects, no rules', load: rulesLoad, server: rulesServer, path: `/apis/${group}/v1/namespaces/bench/plains`, object: object('Plain') },
      { label: 'custom objects, five rules', load: rulesLoad, server: rulesServer, path: `/apis/${group}/v1/namespaces/bench/ruleds`, object: object('Ruled') },
      { label: 'configmaps, no policy', load: plainLoad, server: plainServer, path: '/api/v1/namespaces/bench/configmaps', object: configMap },
      { label: 'configmaps, one policy', load: policyLoad, server: policyServer, path: '/api/v1/namespaces/bench/configmaps', object: configMap },
    ];
    for (const p of phases) await p.load.run(createPlan(p.path, `warm-${phases.indexOf(p)}`, p.object), Math.min(seconds, 2));
    const measuredFrom = monotonicMicros();
    const rounds = roundsFor(seconds, options.rounds);
    const totals = await interleavedWithCpu(phases, (p) => [p.server.server.child.pid], seconds,
      (p, round, s) => p.load.run(createPlan(p.path, `r${round}`, p.object), s), rounds);
    const rate = totals.map((t) => t.perSecond);
    const line = (i: number, base: number, goal?: number) =>
      `${phases[i]!.label.padEnd(30)}${fmt(rate[i]!).padStart(8)} creates/s   ratio ${fmt(rate[i]! / rate[base]!, 3)}${goal === undefined ? '' : ` (goal ≥ ${goal})`}`
      + `   ${cpuColumn(totals[i]!, totals[base])}` + (i === base ? '' : `\n${''.padEnd(30)}${roundRatioColumns(totals[i]!, totals[base]!, goal)}`);
    const lines = [
      `expression language: ${clients} HTTPS connections, ${seconds}s per phase in ${rounds} interleaved rounds`,
      line(0, 0), line(1, 0, 0.8), line(2, 2), line(3, 2, 0.85),
      `errors: ${totals.map((t, i) => `${phases[i]!.label} ${t.errors}`).join(', ')}`,
    ];
    if (options.cpuProfDir === undefined) return lines;
    // The profiles are written as the servers stop.
    await Promise.all(children.splice(0).map((c) => c.stop()));
    return [...lines, ...['rules', 'policy', 'plain'].flatMap((l) => profileLines(l, prof(l)!, measuredFrom))];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, celBench);
