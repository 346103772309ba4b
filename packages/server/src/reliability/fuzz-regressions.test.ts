/**
 * Every crash, 5xx, hang and malformed answer the fuzzer found, kept as a named case against a real server process
 * (SQLite, an admin and an unprivileged token user, HTTP/1.1 written byte by byte and HTTP/2), each asserting the
 * answer kube-apiserver 1.27 gives and that the server goes on serving.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { connect as http2Connect } from 'node:http2';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call } from '../e2e/http.js';
import { cronTabCrd, establish } from '../e2e/crd-fixtures.js';
import { startServerProcess, type ServerProcess } from '../e2e/server-process.js';
import { fuzzTransport, type FuzzOutcome, type FuzzRequest, type FuzzTransport } from './fuzz-transport.js';
import { rssMb } from './fuzz-harness.js';
import { applyConfiguration, type FieldManagerScope, type ManagedObject } from '../apply/field-manager.js';
import { patchSchemaFromOpenApi } from '../patch/patch-schema.js';
import { generatedSchemas } from '../schema/generated-data.js';

const names = namesFor('svc');
const admin = 'regress-admin-token';
const user = 'regress-user-token';
const ns = 'regress';
const userNs = 'regress-user';
let server: ServerProcess;
let transport: FuzzTransport;
let ca: string;

before(async () => {
  const dataDir = tempDir({ after }, 'svc-regress-');
  writeFileSync(join(dataDir, 'tokens.csv'), `${admin},regress-admin,1,"system:masters"\n${user},alice,2,""\n`);
  server = await startServerProcess({ dataDir, extraArgs: [`--token-auth-file=${join(dataDir, 'tokens.csv')}`] });
  ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
  transport = fuzzTransport('127.0.0.1', server.port, ca);
  for (const n of [ns, userNs]) await call(server.client, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } });
  const rbac = names.group('rbac.authorization');
  const bound = await call(server.client, 'POST', `/apis/${rbac}/v1/namespaces/${userNs}/rolebindings`, {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'alice-admin' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'admin' }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
  });
  assert.equal(bound.status, 201, bound.text);
});

after(async () => {
  transport?.close();
  await server?.stop();
});

type Answer = Extract<FuzzOutcome, { kind: 'answer' }>;

/** Sends a request (admin unless `token` says otherwise) and requires an answer. */
async function send(r: Partial<FuzzRequest> & { target: string }, token: string | undefined = admin): Promise<Answer> {
  const headers = [...(r.headers ?? [['Accept', 'application/json']] as [string, string][])];
  if (token !== undefined) headers.push(['Authorization', `Bearer ${token}`]);
  const outcome = await transport.send({ protocol: 'http1', method: 'GET', deadlineMs: 30_000, ...r, headers });
  assert.equal(outcome.kind, 'answer', `${r.method ?? 'GET'} ${r.target.slice(0, 100)}: ${JSON.stringify(outcome).slice(0, 300)}`);
  return outcome as Answer;
}

/** A body as one piece. */
const body = (text: string | Buffer) => ({ chunks: [Buffer.isBuffer(text) ? text : Buffer.from(text)] });

/** The Status of an answer (JSON). */
function status(a: Answer): { code: number; reason: string; message: string } {
  const s = JSON.parse(a.body.toString('utf8')) as { kind: string; code: number; reason: string; message: string };
  assert.equal(s.kind, 'Status', a.body.toString('utf8').slice(0, 200));
  assert.equal(s.code, a.status);
  assert.doesNotMatch(s.message, /call stack|TypeError|RangeError|\[object Object\]/, 'no JavaScript internals');
  return s;
}

async function alive(): Promise<void> {
  assert.equal(server.child.exitCode, null, 'the server process is alive');
  const r = await call(server.anonymous, 'GET', '/livez');
  assert.equal(r.status, 200);
}

const cms = `/api/v1/namespaces/${ns}/configmaps`;
const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });

test('a request target of // (no valid URL) is a 400 Status over HTTP/1.1 and HTTP/2, and the process lives', async () => {
  for (const target of ['//', '//[', '//a:b:c/x', '//host:99999/']) {
    for (const protocol of ['http1', 'http2'] as const) {
      const r = await send({ protocol, target }, undefined);
      assert.equal(r.status, 400, `${protocol} ${target}`);
      assert.match(status(r).message, /^invalid request target/);
    }
  }
  await alive();
});

test('nesting 10,000 levels deep in JSON, YAML (flow, block, compact) and apply bodies is a 400, never a crash', async () => {
  const deep = 10_000;
  const bodies: [string, string][] = [
    ['application/json', '{"a":'.repeat(deep) + '1' + '}'.repeat(deep)],
    ['application/yaml', '{"a":'.repeat(deep) + '1' + '}'.repeat(deep)],
    ['application/yaml', 'x: ' + '['.repeat(deep) + '1' + ']'.repeat(deep) + '\n'],
    ['application/yaml', '- '.repeat(deep) + '1\n'],
    ['application/yaml', Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'a:\n').join('') + ' '.repeat(2000) + 'b: 1\n'],
  ];
  for (const [type, text] of bodies) {
    for (let i = 0; i < 3; i++) {
      const r = await send({ method: 'POST', target: cms, headers: [['Content-Type', type]], body: body(text) });
      assert.equal(r.status, 400, `${type} ${text.slice(0, 20)}`);
      assert.match(status(r).message, /nested too deeply/);
    }
  }
  const apply = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: ' + '{"a":'.repeat(deep) + '1' + '}'.repeat(deep) + '\n';
  const a = await send({ method: 'PATCH', target: `${cms}/deep?fieldManager=x`, headers: [['Content-Type', 'application/apply-patch+yaml']], body: body(apply) });
  assert.equal(a.status, 400);
  await alive();
});

test('10,000-deep merge and strategic merge patches are a 400, not "Maximum call stack size exceeded"', async () => {
  assert.equal((await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(cm('patched'))) })).status, 201);
  const deep = '{"metadata":{"annotations":{"x":"y"}},"deep":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_001);
  for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
    const r = await send({ method: 'PATCH', target: `${cms}/patched`, headers: [['Content-Type', type]], body: body(deep) });
    assert.equal(r.status, 400, type);
    assert.match(status(r).message, /nested too deeply/);
  }
  // A JSON patch can build depth from a shallow body: a deep value at a deep path.
  const v = '{"a":'.repeat(200) + '1' + '}'.repeat(200);
  const ops = JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: {} }, { op: 'add', path: '/x', value: JSON.parse(v) }, { op: 'add', path: '/x' + '/a'.repeat(199), value: JSON.parse(v) }]);
  const r = await send({ method: 'PATCH', target: `${cms}/patched`, headers: [['Content-Type', 'application/json-patch+json']], body: body(ops) });
  assert.equal(r.status, 400);
  assert.match(status(r).message, /patched object is nested too deeply/);
  await alive();
});

test('JSON patches: more than 10,000 operations is kube\'s 413; copies that double the object are refused', async () => {
  const many = JSON.stringify(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' })));
  const r = await send({ method: 'PATCH', target: `${cms}/patched`, headers: [['Content-Type', 'application/json-patch+json']], body: body(many) });
  assert.equal(r.status, 413);
  assert.equal(status(r).message, 'The allowed maximum operations in a JSON patch is 10000, got 10001');
  const doubling = JSON.stringify([{ op: 'add', path: '/data', value: { k: 'x'.repeat(1000) } }, ...Array.from({ length: 60 }, (_, i) => ({ op: 'copy', from: '', path: `/c${i}` }))]);
  const c = await send({ method: 'PATCH', target: `${cms}/patched`, headers: [['Content-Type', 'application/json-patch+json']], body: body(doubling) });
  assert.equal(c.status, 422);
  assert.match(JSON.stringify(status(c)), /accumulated size increase of copy/);
  await alive();
});

test('YAML alias bombs, odd tags and odd documents answer 4xx Statuses', async () => {
  const laughs = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) laughs.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
  const cases: [string, RegExp | number][] = [
    [laughs.join('\n') + '\n', /^yaml: document contains excessive aliasing$/],
    [`x: &x "${'y'.repeat(200_000)}"\n` + Array.from({ length: 100 }, (_, i) => `k${i}: *x`).join('\n') + '\n', /^yaml: document contains excessive aliasing$/],
    // A binary value decodes as its text, which a ConfigMap's data map cannot hold.
    ['apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tags}\ndata: !!binary aGVsbG8=\n', /cannot unmarshal string into Go struct field ConfigMap.data/],
    ['apiVersion: v1\nkind: ConfigMap\nmetadata: {name: inf}\nx: .inf\n', /unsupported value: \+Inf/],
    // A set is a map of nulls: an object without a name.
    ['--- !!set {a, b}\n', 422],
    ['%YAML 1.2\n---\n', /must be a JSON or YAML object/],
    ['a: 1\n---\nb: 2\n', /more than one YAML document/],
    ['x: *nope\n', /Unresolved alias/],
  ];
  for (const [text, want] of cases) {
    const r = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/yaml']], body: body(text) });
    assert.ok(r.status >= 400 && r.status < 500, `${text.slice(0, 30)}: ${r.status}`);
    const s = status(r);
    if (typeof want === 'number') assert.equal(r.status, want, text.slice(0, 30));
    else assert.match(s.message, want, text.slice(0, 30));
  }
  await alive();
});

test('what Node\'s HTTP/1.1 parser refuses is answered with a Status (400, 417, 431), not a bare status line', async () => {
  const raw = async (text: string) => send({ target: '', raw: Buffer.from(text, 'latin1'), closeAfter: true }, undefined);
  let r = await raw('GET /version HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n');
  assert.equal(r.status, 400);
  assert.match(status(r).message, /^malformed HTTP request/);
  r = await raw(`GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(1_100_000)}\r\n\r\n`);
  assert.equal(r.status, 431);
  assert.equal(status(r).message, 'Request header fields too large: limit is 1048576');
  r = await send({ target: '/version', headers: [['Expect', 'sometime']] }, undefined);
  assert.equal(r.status, 417);
  status(r);
  r = await send({ target: '/version', headers: Array.from({ length: 2001 }, (_, i) => [`X-H${i}`, 'v'] as [string, string]) }, undefined);
  assert.equal(r.status, 431);
  assert.match(status(r).message, /at most 2000 header fields/);
  await alive();
});

test('a 1,000-term label selector and a 20 KB path get a proper answer (kube allows 1 MB of headers)', async () => {
  const selector = Array.from({ length: 1000 }, (_, i) => `k${i}=v`).join(',');
  for (const protocol of ['http1', 'http2'] as const) {
    const r = await send({ protocol, target: `${cms}?labelSelector=${encodeURIComponent(selector)}` });
    assert.equal(r.status, 200, protocol);
    const p = await send({ protocol, target: `${cms}/${'n'.repeat(20_000)}` });
    assert.equal(p.status, 404);
    status(p);
  }
});

test('one HTTP/1.1 GET on loopback completes in a millisecond or two: no 40 ms Nagle stall between headers and body', async () => {
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const r = await send({ target: `${cms}?limit=1` });
    assert.equal(r.status, 200);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1]!;
  // A stall shows as about 40 ms on every request; the bound leaves room for a loaded machine.
  assert.ok(median < 10, `median ${median.toFixed(2)} ms: ${times.map((t) => t.toFixed(1)).join(' ')}`);
});

test('metadata.labels: null from an unprivileged user is stored without labels; label-selected lists and watches keep working', async () => {
  const path = `/api/v1/namespaces/${userNs}/configmaps`;
  const created = await send({ method: 'POST', target: path, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(cm('nulls', { metadata: { name: 'nulls', labels: null, annotations: { a: null }, finalizers: null } }))) }, user);
  assert.equal(created.status, 201, created.body.toString());
  const stored = JSON.parse(created.body.toString()) as { metadata: Record<string, unknown> };
  assert.equal('labels' in stored.metadata, false);
  assert.equal('finalizers' in stored.metadata, false);
  assert.deepEqual(stored.metadata['annotations'], { a: '' });
  const watch = send({ target: `${path}?watch=1&labelSelector=app%3Dx&timeoutSeconds=2` }, user);
  for (const sel of ['app%3Dx', 'app', '!app', 'app%20notin%20(x)']) {
    const r = await send({ target: `${path}?labelSelector=${sel}` }, user);
    assert.equal(r.status, 200, sel);
  }
  const patched = await send({ method: 'PATCH', target: `${path}/nulls`, headers: [['Content-Type', 'application/merge-patch+json']], body: body('{"metadata":{"labels":null}}') }, user);
  assert.equal(patched.status, 200);
  assert.equal((await watch).status, 200);
  await alive();
});

test('an unknown field whose name holds control characters or runs to 20 KB answers with a bounded, writable Warning', async () => {
  for (const protocol of ['http1', 'http2'] as const) {
    const text = JSON.stringify(cm(`warned-${protocol}`, { ['bad\u0001\r\nname']: 1, ['x'.repeat(20_000)]: 2, ['ключ']: 3 }));
    const r = await send({ protocol, method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(text) });
    assert.equal(r.status, 201, protocol);
    const warnings = ([] as string[]).concat(r.headers['warning'] ?? []);
    assert.ok(warnings.some((w) => /unknown field/.test(w)), JSON.stringify(warnings).slice(0, 300));
    const total = warnings.reduce((n, w) => n + w.length, 0);
    assert.ok(total < 5000, `${total} bytes of warnings`);
    for (const w of warnings) assert.doesNotMatch(w, /[\u0000-\u0008\u000a-\u001f]/);
  }
});

test('a 900 KB invalid create answers a bounded 422, not megabytes', async () => {
  const labels = Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`bad key ${i}`, 'v'.repeat(80)]));
  const r = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(cm('invalid', { metadata: { name: 'invalid', labels } }))) });
  assert.equal(r.status, 422);
  assert.ok(r.body.length < 200_000, `${r.body.length} bytes`);
  status(r);
});

test('an HTTP/1.1 upload over the body limit that keeps sending gets its 413, and the connection goes on', async () => {
  const big = Buffer.alloc(3 * 1024 * 1024 + 100, 'x');
  for (let i = 0; i < 5; i++) {
    for (const chunked of [false, true]) {
      const r = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: { chunks: [big.subarray(0, 1 << 20), big.subarray(1 << 20)] }, chunked });
      assert.equal(r.status, 413);
      assert.equal(status(r).message, 'Request entity too large: limit is 3145728');
    }
  }
  const after = await send({ target: '/version' });
  assert.equal(after.status, 200);
});

test('a 413 before a body the discard will not take says Connection: close, so a pooled HTTP/1.1 client does not reuse the connection', async () => {
  const big = JSON.stringify(cm('big', { data: { blob: 'x'.repeat(3 * 1024 * 1024 + 10) } }));
  for (let i = 0; i < 3; i++) {
    const r = await call(server.client, 'POST', cms, big);
    assert.equal(r.status, 413);
    // The same keep-alive client at once: before, the server closed the connection it had just kept alive.
    const next = await call(server.client, 'GET', `${cms}?limit=1`);
    assert.equal(next.status, 200);
  }
  const over = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: { chunks: [Buffer.from(big)] } });
  assert.equal(over.status, 413);
  assert.equal(over.headers['connection'], 'close');
  const chunked = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: { chunks: [Buffer.from(big)] }, chunked: true });
  assert.equal(chunked.status, 413);
  assert.equal(chunked.headers['connection'], 'close');
});

test('labelSelector=a in () with literal spaces in the request line is a 400 Status; URL-encoded it selects the empty value, as kube', async () => {
  const r = await send({ target: '', raw: Buffer.from(`GET ${cms}?labelSelector=a in () HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\n\r\n`), closeAfter: true }, undefined);
  assert.equal(r.status, 400);
  status(r);
  const encoded = await send({ target: `${cms}?labelSelector=a%20in%20()` });
  assert.equal(encoded.status, 200);
});

test('unknown non-API paths are kube\'s plain 404 page; unknown API paths a Status', async () => {
  const plain = await send({ target: '/nope/x' });
  assert.equal(plain.status, 404);
  assert.equal(plain.body.toString(), '404 page not found\n');
  assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
  const api = await send({ target: '/apis/nope.example/v1' });
  assert.equal(api.status, 404);
  assert.equal(status(api).message, 'the server could not find the requested resource');
});

test('a stalled upload under a short timeout is answered 504 and its connection or stream ended', async () => {
  for (const protocol of ['http1', 'http2'] as const) {
    const started = Date.now();
    const r = await send({
      protocol, method: 'POST', target: `${cms}?timeout=1s`, headers: [['Content-Type', 'application/json']],
      body: { chunks: [Buffer.from('{"apiVersion":"v1",'), Buffer.from('"kind":"ConfigMap"}')], stall: true },
      declaredLength: 100, closeAfter: true,
    });
    assert.equal(r.status, 504, protocol);
    assert.equal(status(r).message, 'Timeout: request did not complete within the allotted timeout');
    assert.ok(Date.now() - started < 5000);
  }
  await alive();
});

test('odd values where strings belong (kind, name, metadata) answer 400, never a 500 or "[object Object]"', async () => {
  const bad = [
    [cms, 'POST', 'application/json', JSON.stringify({ apiVersion: 'v1', kind: { a: 1 }, metadata: { name: 'k' } })],
    [`${cms}/patched`, 'PATCH', 'application/merge-patch+json', JSON.stringify({ metadata: { name: { a: 1 } } })],
    [`${cms}/odd?fieldManager=x`, 'PATCH', 'application/apply-patch+yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: xxx\n'],
  ] as const;
  for (const [target, method, type, text] of bad) {
    const r = await send({ method, target, headers: [['Content-Type', type]], body: body(text) });
    assert.ok(r.status >= 400, `${method} ${target}: ${r.status}`);
    const s = status(r);
    // kube answers a schema mismatch of an apply body with its typed-patch 500; anything else is a client error.
    if (r.status >= 500) assert.match(s.message, /^failed to create typed patch object/);
  }
  await alive();
});

test('a field name holding NUL keeps managedFields readable: a later apply works', async () => {
  const r = await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(cm('nul', { data: { a: 'b' } }))) });
  assert.equal(r.status, 201);
  const p = await send({ method: 'PATCH', target: `${cms}/nul`, headers: [['Content-Type', 'application/merge-patch+json']], body: body(JSON.stringify({ metadata: { ['x\u0000y']: 1 }, data: { ['k']: 'v' } })) });
  assert.ok(p.status < 500, p.body.toString());
  const a = await send({ method: 'PATCH', target: `${cms}/nul?fieldManager=applier`, headers: [['Content-Type', 'application/apply-patch+yaml']], body: body('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nul\ndata:\n  c: d\n') });
  assert.equal(a.status, 200, a.body.toString());
});

test('integers past 2^53 in a YAML body are stored as numbers, not a 500', async () => {
  const r = await send({
    method: 'POST', target: `/api/v1/namespaces/${ns}/persistentvolumeclaims`, headers: [['Content-Type', 'application/yaml']],
    body: body('apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: big-ints\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 9223372036854775807\n'),
  });
  assert.equal(r.status, 201, r.body.toString());
});

test('several uploads near the body limit on one HTTP/2 connection are all answered (no refused streams)', async () => {
  const session = http2Connect(server.url, { ca });
  try {
    const big = Buffer.from(JSON.stringify(cm('h2-big', { data: { pad: 'p'.repeat(2_900_000) } })));
    const one = (i: number) => new Promise<number>((resolve, reject) => {
      const s = session.request({ ':method': 'POST', ':path': `${cms}?dryRun=All`, 'content-type': 'application/json', authorization: `Bearer ${admin}` });
      s.on('response', (h) => resolve(Number(h[':status'])));
      s.on('error', (e) => reject(new Error(`upload ${i}: ${e.message}`)));
      s.resume();
      s.end(big);
    });
    const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => one(i)));
    assert.ok(codes.every((c) => c < 500), codes.join(' '));
  } finally {
    session.close();
  }
});

test('1,600 HTTP/2 watches ended by the client after their headers are all answered: the fuzzer\'s sessions stay within the rapid-reset budget', { timeout: 120_000 }, async () => {
  // Each is cancelled once its headers arrive; on one session that many resets, faster than 33 a second, are what
  // nghttp2 answers with GOAWAY, and every stream still open on it then closed unanswered.
  let next = 0;
  const failures: string[] = [];
  const worker = async (): Promise<void> => {
    while (next < 1_600) {
      const i = next++;
      const outcome = await transport.send({
        protocol: 'http2', method: 'GET', target: `${cms}?watch=true&timeoutSeconds=60`, deadlineMs: 30_000, headersOnly: true,
        headers: [['Accept', 'application/json'], ['Authorization', `Bearer ${admin}`]],
      });
      if (outcome.kind !== 'answer' || outcome.status !== 200) failures.push(`#${i}: ${JSON.stringify(outcome).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of 1,600 watches unanswered`);
  await alive();
});

test('uploads over the limit, one after another on one HTTP/2 connection, are each answered 413 and leave no stream open', { timeout: 120_000 }, async () => {
  const session = http2Connect(server.url, { ca, maxSessionMemory: 1024 });
  try {
    const big = Buffer.alloc(4_000_000, 'x');
    for (let i = 0; i < 30; i++) {
      const got = await new Promise<string>((resolve) => {
        const s = session.request({ ':method': 'POST', ':path': cms, 'content-type': 'application/json', authorization: `Bearer ${admin}` });
        let code = 0;
        s.on('response', (h) => (code = Number(h[':status'])));
        s.on('close', () => resolve(`${code}`));
        s.on('error', () => {});
        s.resume();
        s.end(big);
      });
      assert.equal(got, '413', `upload ${i}`);
    }
  } finally {
    session.close();
  }
});

test('server-side apply of a 100,000-key ConfigMap: field management within a few JSON round trips of it, and answered', async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < 100_000; i++) data[`k${i}`] = '';
  // As a request body decodes: through the JSON parser.
  const config = JSON.parse(JSON.stringify(cm('huge', { metadata: { name: 'huge', namespace: ns }, data }))) as ManagedObject;
  const scope: FieldManagerScope = {
    schema: patchSchemaFromOpenApi(generatedSchemas(), 'io.k8s.api.core.v1.ConfigMap'), apiVersion: 'v1', subresource: '',
    hasStatus: false, now: () => '2024-01-01T00:00:00Z', typed: true,
  };
  const best = (f: () => void, runs = 3): number => {
    let min = Infinity;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      f();
      min = Math.min(min, performance.now() - t);
    }
    return min;
  };
  // The baseline, measured in the same run: one JSON round trip of the object (two full passes over it).
  const roundTrip = best(() => JSON.parse(JSON.stringify(config)));
  let live: ManagedObject | undefined;
  const create = best(() => {
    const out = applyConfiguration(undefined, config, 'applier', false, scope);
    assert.ok(out.ok);
    live = out.value;
  });
  const again = best(() => assert.ok(applyConfiguration(live, config, 'applier', false, scope).ok));
  // About 7 round trips each; with field paths as joined strings it was 10 to 22, and the request stalled for seconds.
  assert.ok(create < 15 * roundTrip && again < 15 * roundTrip, `round trip ${roundTrip.toFixed(1)} ms, apply ${create.toFixed(1)} ms, again ${again.toFixed(1)} ms`);
  const text = JSON.stringify(cm('huge', { data }));
  for (let i = 0; i < 2; i++) {
    const r = await send({ method: 'PATCH', target: `${cms}/huge?fieldManager=applier`, headers: [['Content-Type', 'application/apply-patch+yaml']], body: body(text) });
    assert.ok(r.status === 201 || r.status === 200, `${r.status} ${r.body.toString().slice(0, 200)}`);
  }
  assert.ok(rssMb(server.child.pid) < 1024);
  await alive();
});

test('DELETE /api/v1/events and the other unrouted verbs across namespaces: 405 for built-ins, 404 for custom resources, nothing deleted', async () => {
  await establish(server, cronTabCrd('across.example.com'));
  const crontabs = `/apis/across.example.com/v1/namespaces/${ns}/crontabs`;
  const made = await send({ method: 'POST', target: crontabs, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify({ apiVersion: 'across.example.com/v1', kind: 'CronTab', metadata: { name: 'kept' }, spec: { cronSpec: '* * * * *' } })) });
  assert.equal(made.status, 201, made.body.toString());
  assert.equal((await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(cm('across-kept'))) })).status, 201);
  const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: ns }, involvedObject: { kind: 'ConfigMap', name: 'across-kept', namespace: ns } };
  assert.equal((await send({ method: 'POST', target: `/api/v1/namespaces/${ns}/events`, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(event)) })).status, 201);
  const json = [['Content-Type', 'application/json']] as [string, string][];
  for (const [method, target, code, payload] of [
    ['DELETE', '/api/v1/events', 405, undefined],
    ['DELETE', '/api/v1/configmaps?labelSelector=x%21%3Dy', 405, undefined],
    ['POST', '/api/v1/events', 405, event],
    ['PUT', '/api/v1/configmaps', 405, cm('across-kept')],
    ['GET', '/api/v1/configmaps/across-kept', 404, undefined],
    ['DELETE', '/api/v1/configmaps/across-kept', 404, undefined],
    ['POST', '/api/v1/watch/events', 405, event],
    ['DELETE', `/api/v1/watch/namespaces/${ns}/configmaps`, 405, undefined],
    ['DELETE', '/apis/across.example.com/v1/crontabs', 404, undefined],
    ['POST', '/apis/across.example.com/v1/crontabs', 404, { apiVersion: 'across.example.com/v1', kind: 'CronTab', metadata: { name: 'x', namespace: ns } }],
    ['GET', '/apis/across.example.com/v1/crontabs/kept', 404, undefined],
  ] as const) {
    for (const protocol of ['http1', 'http2'] as const) {
      const r = await send({ protocol, method, target, ...(payload ? { headers: json, body: body(JSON.stringify(payload)) } : {}) });
      assert.equal(r.status, code, `${protocol} ${method} ${target}: ${r.body.toString().slice(0, 200)}`);
      assert.equal(status(r).reason, code === 405 ? 'MethodNotAllowed' : 'NotFound');
    }
  }
  // What is routed there still works: lists and watches across namespaces.
  const list = await send({ target: '/apis/across.example.com/v1/crontabs' });
  assert.equal(list.status, 200);
  assert.deepEqual((JSON.parse(list.body.toString()) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name), ['kept']);
  assert.equal((await send({ target: '/api/v1/events?watch=1&timeoutSeconds=1' })).status, 200);
  assert.equal((await send({ target: '/api/v1/watch/configmaps?timeoutSeconds=1' })).status, 200);
  for (const target of [`${crontabs}/kept`, `${cms}/across-kept`, `/api/v1/namespaces/${ns}/events/e1`]) assert.equal((await send({ target })).status, 200, `${target} is still there`);
  await alive();
});

test('strategic merge patches of 20,000 list items by merge key and of 100,000 scalars are answered at once, not after minutes', async () => {
  const env = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ name: `E${from + i}`, value: 'v' }));
  const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'big-env' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox', env: env(0, 20_000) }] } } },
  };
  assert.equal((await send({ method: 'POST', target: deployments, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(deployment)) })).status, 201);
  // Each patch item was looked up in the live list, and the merged list sorted by insertion: held the server ten minutes.
  const smp = [['Content-Type', 'application/strategic-merge-patch+json']] as [string, string][];
  const patched = await send({ method: 'PATCH', target: `${deployments}/big-env`, headers: smp, body: body(JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', env: env(10_000, 20_000) }] } } } })) });
  assert.equal(patched.status, 200, patched.body.toString().slice(0, 300));
  const names = (JSON.parse(patched.body.toString()) as { spec: { template: { spec: { containers: { env: { name: string }[] }[] } } } }).spec.template.spec.containers[0]!.env.map((e) => e.name);
  assert.deepEqual(names, env(0, 30_000).map((e) => e.name), 'live items in place, new ones after them');
  // A list of scalars merged by value (finalizers): deduplicated in quadratic time, it never ended.
  const kept = { ...cm('many-finalizers'), metadata: { name: 'many-finalizers', finalizers: ['example.com/kept'] } };
  assert.equal((await send({ method: 'POST', target: cms, headers: [['Content-Type', 'application/json']], body: body(JSON.stringify(kept)) })).status, 201);
  const finalizers = Array.from({ length: 100_000 }, (_, i) => `example.com/f${i % 50_000}`);
  const merged = await send({ method: 'PATCH', target: `${cms}/many-finalizers`, headers: smp, body: body(JSON.stringify({ metadata: { finalizers } })) });
  assert.equal(merged.status, 200, merged.body.toString().slice(0, 300));
  const after = (JSON.parse(merged.body.toString()) as { metadata: { finalizers: string[] } }).metadata.finalizers;
  assert.deepEqual([after.length, after[0], after[after.length - 1]], [50_001, 'example.com/f0', 'example.com/kept'], 'each value once: the patch\'s in its order, then the live one');
  await alive();
});

test('HTTP/1.1 connections held open without a request are no threat to others (TLS handshake then silence)', async () => {
  const idle = await Promise.all(Array.from({ length: 20 }, () => new Promise<ReturnType<typeof tlsConnect>>((resolve) => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca, servername: 'localhost' }, () => resolve(s));
    s.on('error', () => {});
  })));
  try {
    const r = await send({ target: '/version' });
    assert.equal(r.status, 200);
  } finally {
    for (const s of idle) s.destroy();
  }
});
