/**
 * Admission's cost on creates, every figure beside a server without admission measured in the same run: creates/s
 * of configmaps by 64 keep-alive HTTPS connections of the load generator against
 *
 * - a server with every admission plugin disabled (the baseline),
 * - a server with the default plugin set (goal: at least 0.9 of the baseline),
 * - servers with the default set and 1 and 3 no-op validating webhooks matching the creates (goal for one: at
 *   least 0.5), the webhook a separate process answering over HTTPS on loopback: one webhook speaking HTTP/1.1
 *   only (as webhooks whose framework turns HTTP/2 off), and one offering HTTP/2 by ALPN beside HTTP/1.1 (as Go's
 *   net/http serves by default), which the server then calls over HTTP/2.
 *
 * The servers run side by side and are measured in many short interleaved rounds (A/B/C/..., about half a second
 * each), so drift of the shared machine touches each alike. Beside each rate, the server's CPU time per create (read
 * around the same rounds) and its ratio to the baseline's, which other work on the machine hardly moves; and for
 * both, the ratios round by round (each round beside the baseline's round next to it): their median, which a goal is
 * held to, and their spread, which tells whether the run can decide it.
 *
 * Flags: --seconds=<per phase, default 3> --rounds=<n, default one per half second> --clients=<64>
 * --cpu-prof=<dir> (each server under node's CPU profiler, a summary of its measured rounds after the figures)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { defaultOnPlugins } from 'svc-apiserver/admission/plugin-order';
import { pluginFactories } from 'svc-apiserver/admission/plugins/index';
import { madeName } from 'svc-apiserver/admission/plugin-configuration';
import { defaultAdmissionFlags } from 'svc-apiserver/admission/plugin';
import { admissionMetrics } from 'svc-apiserver/admission/admission-metrics';
import { createMetricsRegistry } from 'svc-apiserver/metrics/metrics-registry';
import { createCa, issueLeaf } from 'svc-apiserver/pki/certificates';
import type { NodeChild } from '@svc-apiserver/testing/node-child';
import { runStandalone, startBenchModule, type StandaloneOptions } from './support.js';
import { configMap, createPlan, createsLine, loadFor, post, profileLines, startTarget, type Target } from './create-load.js';
import { monotonicMicros } from './cpu-profile-summary.js';
import type { LoadGenerator } from './load/load-generator.js';
import { cpuColumn, interleavedWithCpu, roundRatioColumns, roundsFor, type CpuFigures } from './server-cpu.js';
import { cpuLayout, pinProcess } from './load/cpu-pinning.js';

const names = namesFor('svc');
const group = names.group('admissionregistration');

/** The default-on plugins this server knows: disabling them all leaves no admission. */
function defaultPluginNames(): string[] {
  const init = { configuration: () => undefined, flags: defaultAdmissionFlags, metrics: admissionMetrics(createMetricsRegistry()) };
  return pluginFactories.map((make) => madeName(make(names, init))).filter((n) => defaultOnPlugins.has(n));
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
export async function admissionBench(seconds = 3, clients = 64, options: StandaloneOptions = {}): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-admission-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const generators: LoadGenerator[] = [];
  const admins: { close(): void }[] = [];
  try {
    const ca = await createCa('bench-webhook-ca');
    const serving = await issueLeaf(ca, { commonName: 'noop-webhook', usage: 'server', sans: ['127.0.0.1'] });
    writeFileSync(join(dir, 'webhook.crt'), serving.certPem);
    writeFileSync(join(dir, 'webhook.key'), serving.keyPem);
    const startWebhook = async (flags: string[]): Promise<number> => {
      const webhook: { child: NodeChild; match: RegExpExecArray } = await startBenchModule('noop-webhook-server',
        [`--cert=${join(dir, 'webhook.crt')}`, `--key=${join(dir, 'webhook.key')}`, ...flags], /noop-webhook: serving on (\d+)/);
      children.push(webhook.child);
      // A webhook stands for a service elsewhere: it runs beside the load generator, off the core of the servers measured.
      pinProcess(webhook.child.process.pid, cpuLayout()?.generator);
      return Number(webhook.match[1]);
    };
    const http1Port = await startWebhook([]);
    const http2Port = await startWebhook(['--http2']);
    const caBundle = Buffer.from(ca.certPem).toString('base64');

    // Four servers side by side, measured in interleaved rounds so that the machine's drift touches each alike.
    const prof = (label: string) => (options.cpuProfDir === undefined ? undefined : join(options.cpuProfDir, label));
    const none = await startTarget(join(dir, 'none'), [`--disable-admission-plugins=${defaultPluginNames().join(',')}`], prof('none'));
    const plain = await startTarget(join(dir, 'default'), [], prof('default'));
    const oneHttp1 = await startTarget(join(dir, 'one-http1'), [], prof('one-webhook-http1'));
    const oneHttp2 = await startTarget(join(dir, 'one-http2'), [], prof('one-webhook-http2'));
    const threeHooks = await startTarget(join(dir, 'three'), [], prof('three-webhooks-http2'));
    const servers: { target: Target; load: LoadGenerator }[] = [];
    for (const target of [none, plain, oneHttp1, oneHttp2, threeHooks]) {
      children.push(target.server);
      admins.push(target.admin);
      const load = await loadFor(target, clients);
      generators.push(load);
      servers.push({ target, load });
    }
    await post(oneHttp1.admin, `/apis/${group}/v1/validatingwebhookconfigurations`, noopWebhooks('one', 1, http1Port, caBundle));
    await post(oneHttp2.admin, `/apis/${group}/v1/validatingwebhookconfigurations`, noopWebhooks('one', 1, http2Port, caBundle));
    await post(threeHooks.admin, `/apis/${group}/v1/validatingwebhookconfigurations`, noopWebhooks('three', 3, http2Port, caBundle));
    const plan = (phase: string) => createPlan('/api/v1/namespaces/bench/configmaps', phase, configMap);
    for (const s of servers) await s.load.run(plan('warm'), Math.min(seconds, 2));
    const measuredFrom = monotonicMicros();
    const rounds = roundsFor(seconds, options.rounds);
    const [baseline, defaults, one1, one2, three] = await interleavedWithCpu(servers, (s) => [s.target.server.child.pid], seconds,
      (s, round, sec) => s.load.run(plan(`r${round}`), sec), rounds) as [CpuFigures, CpuFigures, CpuFigures, CpuFigures, CpuFigures];
    const line = (label: string, f: CpuFigures, goal?: number) => `${createsLine(label, f, baseline, goal)}   ${cpuColumn(f, baseline)}`
      + (f === baseline ? '' : `\n${''.padEnd(28)}${roundRatioColumns(f, baseline, goal)}`);
    const lines = [
      `admission: ${clients} HTTPS connections creating configmaps, ${seconds}s per server in ${rounds} interleaved rounds, beside a server without admission plugins`,
      line('no admission plugins', baseline),
      line('default plugins', defaults, 0.9),
      line('default + webhook, HTTP/1.1', one1, 0.5),
      line('default + webhook, HTTP/2', one2, 0.5),
      line('default + 3 webhooks, HTTP/2', three),
      `errors: none ${baseline.errors}, default ${defaults.errors}, 1 webhook HTTP/1.1 ${one1.errors}, 1 webhook HTTP/2 ${one2.errors}, 3 webhooks ${three.errors}`,
    ];
    if (options.cpuProfDir === undefined) return lines;
    // The profiles are written as the servers stop.
    await Promise.all(children.splice(0).map((c) => c.stop()));
    return [...lines, ...['none', 'default', 'one-webhook-http1', 'one-webhook-http2', 'three-webhooks-http2'].flatMap((l) => profileLines(l, prof(l)!, measuredFrom))];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of admins) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, admissionBench);
