/**
 * The parity corpus end to end: every case of every corpus file runs against a real server of each flavour (one
 * server per flavour, cases in parallel, each on its own object), and every answer must be what kube-apiserver
 * 1.27 gives: status code, reason, the causes' field paths, and the values the stored object holds. Beside the
 * corpus, on the same servers: kubectl 1.27 and 1.32 client-side validation of every kind, client-side to
 * server-side apply migration and `explain` enums, and the Python
 * client's `force=True` (skipped where the client is not installed).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor, type Names } from '@svc-apiserver/api';
import { findKubectls, runKubectl, succeeded } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call, createNamespace, type Reply } from '../http.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { corpusFiles } from './index.js';
import type { Expectation, ParityCase, ResourceRef, Step } from './corpus.js';

const namespace = 'parity';

/** RFC 7386 JSON merge patch, applied on the client to build an update's body. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** `spec.containers[0].ports[0].protocol`, `metadata.labels[svc.io/x]`: dots separate fields, brackets index or key. */
function valueAt(object: unknown, path: string): unknown {
  const parts: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) parts.push(m[1]);
    else parts.push(/^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!);
  }
  let cur: unknown = object;
  for (const p of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

function collectionPath(names: Names, r: ResourceRef): string {
  const base = r.groupKey === '' ? `/api/${r.version}` : `/apis/${names.group(r.groupKey)}/${r.version}`;
  return `${base}${r.namespaced ? `/namespaces/${namespace}` : ''}/${r.resource}`;
}

function apiVersionOf(names: Names, r: ResourceRef): string {
  return r.groupKey === '' ? r.version : `${names.group(r.groupKey)}/${r.version}`;
}

/** What is wrong with an answer, or an empty list. */
function mismatches(reply: Reply, expect: Expectation): string[] {
  const out: string[] = [];
  const body = reply.body;
  if (reply.status !== expect.code) {
    out.push(`code ${reply.status}, expected ${expect.code}: ${body?.message ?? reply.text.slice(0, 300)}`);
    return out;
  }
  if (expect.reason !== undefined && body?.reason !== expect.reason) out.push(`reason ${body?.reason}, expected ${expect.reason}`);
  if (expect.causes !== undefined) {
    const got = ((body?.details?.causes ?? []) as { field?: string }[]).map((c) => c.field ?? '').sort();
    const want = [...expect.causes].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`causes ${JSON.stringify(got)}, expected ${JSON.stringify(want)} (${body?.message})`);
  }
  for (const part of expect.message ?? []) {
    if (!String(body?.message ?? '').includes(part)) out.push(`message ${JSON.stringify(body?.message)} lacks ${JSON.stringify(part)}`);
  }
  for (const [path, want] of Object.entries(expect.values ?? {})) {
    const got = valueAt(body, path);
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`${path} = ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  const header = reply.headers['warning'];
  const warningText = Array.isArray(header) ? header.join('\n') : String(header ?? '');
  for (const w of expect.warnings ?? []) {
    if (!warningText.includes(`299 - ${JSON.stringify(w)}`)) out.push(`warning ${JSON.stringify(w)} missing from ${JSON.stringify(warningText)}`);
  }
  for (const [path, part] of Object.entries(expect.contains ?? {})) {
    const got = valueAt(body, path);
    if (typeof got !== 'string' || !got.includes(part)) out.push(`${path} = ${JSON.stringify(got)}, expected to contain ${JSON.stringify(part)}`);
  }
  for (const path of expect.absent ?? []) {
    if (valueAt(body, path) !== undefined) out.push(`${path} present (${JSON.stringify(valueAt(body, path))}), expected absent`);
  }
  return out;
}

const contentTypes = {
  merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json', json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** Runs one case; returns its failures, each naming the step. */
async function runCase(server: ServerProcess, names: Names, c: ParityCase, index: number): Promise<string[]> {
  const collection = collectionPath(names, c.resource);
  // A case names its object in its first create or patch body, or gets a name of its own.
  const first = c.steps.find((s) => s.op === 'create' || s.op === 'patch');
  const firstBody = first?.op === 'create' ? first.object : first?.op === 'patch' ? first.body : undefined;
  const fixedName = ((firstBody as { metadata?: { name?: string } } | undefined)?.metadata)?.name;
  const name = fixedName ?? `p${index}-${c.resource.resource.slice(0, 30)}`;
  const failures: string[] = [];
  for (const [i, step] of c.steps.entries()) {
    const item = `${collection}/${name}`;
    let reply: Reply;
    const query = 'query' in step && step.query ? `?${step.query}` : '';
    switch (step.op) {
      case 'create': {
        const meta = { ...(step.object['metadata'] as Record<string, unknown> | undefined), ...(c.resource.virtual ? {} : { name }) };
        const body = { apiVersion: apiVersionOf(names, c.resource), kind: c.resource.kind, ...step.object, metadata: meta };
        reply = await call(server.client, 'POST', collection + query, body);
        break;
      }
      case 'update': {
        const path = step.subresource ? `${item}/${step.subresource}` : item;
        const current = await call(server.client, 'GET', item);
        if (current.status !== 200) {
          failures.push(`step ${i} (update): GET answered ${current.status}`);
          return failures;
        }
        reply = await call(server.client, 'PUT', path + query, mergePatch(current.body, step.merge));
        break;
      }
      case 'patch': {
        const path = step.subresource ? `${item}/${step.subresource}` : item;
        const text = typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
        reply = await call(server.client, 'PATCH', path + query, text, { 'content-type': contentTypes[step.type] });
        break;
      }
      case 'get':
        reply = await call(server.client, 'GET', item);
        break;
      case 'pod':
        reply = await call(server.client, 'POST', `/api/v1/namespaces/${namespace}/pods`, {
          apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'a', image: 'nginx' }] },
        });
        break;
      case 'list':
        reply = await call(server.client, 'GET', collection);
        break;
      case 'binding':
        reply = await call(server.client, 'POST', `${item}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: step.target } });
        break;
    }
    for (const m of mismatches(reply, step.expect)) failures.push(`step ${i} (${step.op}): ${m}`);
    // Whatever a strategy does, a stored object keeps the system fields kube sets on every create.
    if (step.op === 'create' && reply.status === 201 && !c.resource.virtual && reply.body?.kind !== 'Status') {
      const meta = reply.body?.metadata ?? {};
      if (typeof meta.creationTimestamp !== 'string' || typeof meta.uid !== 'string') failures.push(`step ${i} (create): no creationTimestamp or uid`);
    }
  }
  return failures;
}

async function runAll(server: ServerProcess, names: Names): Promise<{ count: number; failures: string[] }> {
  const cases = corpusFiles.flatMap((file) => file(names));
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      const c = cases[index]!;
      for (const f of await runCase(server, names, c, index)) failures.push(`${c.name}: ${f}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { count: cases.length, failures };
}

/** Resources whose names the schema ties to their content (`<version>.<group>`, `<plural>.<group>`): no generateName. */
const namedByContent = new Set(['apiservices', 'customresourcedefinitions']);

/**
 * One accepted object per kind from the corpus, for kubectl to validate and create with `--dry-run=server`: the
 * first create of each case that starts with an accepted create, under a generated name (the corpus's own objects
 * keep theirs), in a `List`.
 */
function kubectlObjects(names: Names): { kinds: string[]; list: Record<string, unknown> } {
  const items: Record<string, unknown>[] = [];
  const kinds = new Set<string>();
  for (const c of corpusFiles.flatMap((file) => file(names))) {
    const first = c.steps[0];
    if (first?.op !== 'create' || first.expect.code !== 201 || first.query || c.resource.virtual || namedByContent.has(c.resource.resource)) continue;
    const key = `${apiVersionOf(names, c.resource)}/${c.resource.kind}`;
    if (kinds.has(key) || c.resource.resource === 'bindings') continue;
    kinds.add(key);
    const { name: _name, ...meta } = (first.object['metadata'] ?? {}) as Record<string, unknown>;
    items.push({
      apiVersion: apiVersionOf(names, c.resource), kind: c.resource.kind, ...first.object,
      metadata: { ...meta, generateName: 'kv-', ...(c.resource.namespaced ? { namespace } : {}) },
    });
  }
  return { kinds: [...kinds].sort(), list: { apiVersion: 'v1', kind: 'List', items } };
}

const flavours = ['svc', 'k8s'] as const;
const servers = new Map<string, ServerProcess>();

// Both servers start at once: their start-up is most of this file's wall time.
before(async () => {
  await Promise.all(flavours.map(async (flavour) => {
    const started = await startServerProcess({ flavour, storage: 'memory' });
    servers.set(flavour, started);
    await createNamespace(started.client, namespace);
  }));
});

after(async () => {
  await Promise.all([...servers.values()].map((s) => s.stop()));
});

for (const flavour of flavours) {
  describe(`parity corpus (${flavour} flavour)`, () => {
    const names = namesFor(flavour);
    let server: ServerProcess | undefined;
    before(() => {
      server = servers.get(flavour);
    });
    test('every case answers as kube-apiserver 1.27 does', async () => {
      const { count, failures } = await runAll(server!, names);
      assert.ok(count > 0);
      assert.deepEqual(failures, [], `${failures.length} of ${count} cases differ`);
    });

    test('kubectl 1.27 and 1.32: client-side validation and a server dry-run create of every kind, kinds without PATCH, client-side to server-side apply, enums in explain', async (t) => {
      const kubectls = findKubectls(['1.27', '1.32']).filter((k) => k.label !== 'kubectl');
      if (kubectls.length === 0) {
        t.skip('versioned kubectl binaries are not installed');
        return;
      }
      const home = tempDir(t, 'parity-kubectl-');
      const authz = names.group('authorization');
      const write = (file: string, text: string): string => {
        writeFileSync(join(home, file), text);
        return join(home, file);
      };
      const ssar = write('ssar.yaml', `apiVersion: ${authz}/v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes:\n    verb: get\n    resource: pods\n`);
      const ssrr = write('ssrr.yaml', `apiVersion: ${authz}/v1\nkind: SelfSubjectRulesReview\nspec:\n  namespace: ${namespace}\n`);
      const bad = write('bad.yaml', `apiVersion: ${authz}/v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes:\n    verb: get\n    bogus: 1\n`);
      for (const bin of kubectls) {
        const run = (args: string[]) => runKubectl(bin, server!.kubeconfigPath, join(home, bin.label), args);
        const allowed = succeeded(await run(['create', '-f', ssar, '-o', 'jsonpath={.status.allowed}']), `${bin.label} SelfSubjectAccessReview`);
        assert.equal(allowed, 'true');
        succeeded(await run(['create', '-f', ssrr, '-o', 'name']), `${bin.label} SelfSubjectRulesReview`);
        const rejected = await run(['create', '-f', bad, '-o', 'name']);
        assert.notEqual(rejected.code, 0);
        assert.match(rejected.stderr, /ValidationError\(SelfSubjectAccessReview\.spec\.resourceAttributes\): unknown field "bogus"/, `${bin.label}: ${rejected.stderr}`);
        assert.doesNotMatch(rejected.stderr, /failed to check CRD/);
        const { kinds, list } = kubectlObjects(names);
        const all = write('all-kinds.json', JSON.stringify(list));
        const dry = succeeded(await run(['create', '--dry-run=server', '-f', all, '-o', 'jsonpath={.apiVersion}/{.kind}{"\\n"}']), `${bin.label} dry-run create`);
        assert.deepEqual(dry.trim().split('\n').sort(), kinds, bin.label);
        // A Deployment applied client-side, then server-side with a new image: kubectl takes over what its
        // client-side apply recorded, ports keyed by containerPort and the defaulted protocol. Stock kubectl
        // records under the k8s flavour's annotation key; the svc flavour's key is covered by the corpus.
        if (flavour === 'k8s') {
          const deployment = (image: string) => write(`deployment-${bin.label}.yaml`, [
            'apiVersion: apps/v1', 'kind: Deployment', `metadata:\n  name: migrate-${bin.label.replace(/\./g, '-')}\n  namespace: ${namespace}`,
            'spec:\n  selector:\n    matchLabels: {app: migrate}\n  template:\n    metadata:\n      labels: {app: migrate}',
            `    spec:\n      containers:\n      - name: nginx\n        image: ${image}\n        ports:\n        - containerPort: 80`,
          ].join('\n'));
          succeeded(await run(['apply', '-f', deployment('nginx:1.25')]), `${bin.label} client-side apply`);
          const serverSide = succeeded(await run(['apply', '--server-side', '-f', deployment('nginx:1.26'), '-o', 'jsonpath={.spec.template.spec.containers[0].image}']), `${bin.label} server-side apply after client-side`);
          assert.equal(serverSide, 'nginx:1.26');
        }
        const explain = succeeded(await run(['explain', 'deployments.spec.strategy']), `${bin.label} explain`);
        assert.match(explain, /Possible enum values:\n\s+- `"Recreate"` Kill all existing pods before creating new ones\./);
      }
    });

    test('the Python client\'s force=True is read as true', async (t) => {
      const script = [
        'import json, sys',
        'from kubernetes import client, config',
        'config.load_kube_config(sys.argv[1])',
        'api = client.ApiClient()',
        'body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-force"}, "data": {"k": sys.argv[2]}}',
        'r = api.call_api("/api/v1/namespaces/{namespace}/configmaps/{name}", "PATCH", {"namespace": "parity", "name": "py-force"},',
        '    [("fieldManager", sys.argv[3]), ("force", True)], {"Content-Type": "application/apply-patch+yaml", "Accept": "application/json"},',
        '    body=json.dumps(body), response_type="object", auth_settings=["BearerToken"], _return_http_data_only=True)',
        'print(r["data"]["k"], ",".join(sorted(e["manager"] for e in r["metadata"]["managedFields"])))',
      ].join('\n');
      const python = (value: string, manager: string) => new Promise<{ code: number; out: string }>((resolve) => {
        execFile('/usr/bin/python3', ['-c', script, server!.kubeconfigPath, value, manager], { timeout: 60_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` });
        });
      });
      const probe = await python('a', 'first');
      if (probe.code !== 0 && /No module named 'kubernetes'|No such file/.test(probe.out)) {
        t.skip('the Python client is not installed');
        return;
      }
      assert.equal(probe.code, 0, probe.out);
      const forced = await python('b', 'second');
      assert.equal(forced.code, 0, forced.out);
      assert.equal(forced.out.trim(), 'b second', 'force=True took the field from the first manager');
    });
  });
}
