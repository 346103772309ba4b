/**
 * The parity corpus end to end: every case of every corpus file runs against a real server of each flavour (one
 * server per flavour, cases in parallel, each on its own object), and every answer must be what kube-apiserver
 * 1.27 gives: status code, reason, the causes' field paths, and the values the stored object holds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type Names } from '@svc-apiserver/api';
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
  const firstObject = c.steps.find((s): s is Extract<Step, { op: 'create' }> => s.op === 'create')?.object;
  const fixedName = (firstObject?.['metadata'] as { name?: string } | undefined)?.name;
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
      case 'binding':
        reply = await call(server.client, 'POST', `${item}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: step.target } });
        break;
    }
    for (const m of mismatches(reply, step.expect)) failures.push(`step ${i} (${step.op}): ${m}`);
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

for (const flavour of ['svc', 'k8s'] as const) {
  describe(`parity corpus (${flavour} flavour)`, () => {
    let server: ServerProcess | undefined;
    const names = namesFor(flavour);
    before(async () => {
      server = await startServerProcess({ flavour, storage: 'memory' });
      await createNamespace(server.client, namespace);
    });
    after(async () => {
      await server?.stop();
    });
    test('every case answers as kube-apiserver 1.27 does', async () => {
      const { count, failures } = await runAll(server!, names);
      assert.ok(count > 0);
      assert.deepEqual(failures, [], `${failures.length} of ${count} cases differ`);
    });
  });
}
