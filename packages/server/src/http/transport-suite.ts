/**
 * The conformance suite of a request context's transport: whatever carries the bytes (node's HTTP/1.1 and HTTP/2
 * in the server, the capturing fake of handler tests), a request body is decoded and a response negotiated,
 * encoded and streamed by the one body decoder and response writer, so every transport answers a request with the
 * same status, headers and bytes. Each transport's test runs it with its way of serving one request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { namesFor, type KubeObject, type Status } from '@svc-apiserver/api';
import { parseWarnings } from '@svc-apiserver/client';
import type { RequestContext } from './context.js';
import { decodeBody } from './decode-body.js';
import { addWarning, expire, startJsonStream, startWatch, writeObject, writeStatus } from './response-writer.js';
import { protobufCodec, protobufPrefix } from '@svc-apiserver/protobuf/codec';

/** One request as sent. */
export interface SuiteRequest {
  readonly method: string;
  /** The path with its query. */
  readonly path: string;
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** The answer as received. */
export interface SuiteAnswer {
  readonly code: number;
  /** Response headers, names in lower case; a repeated header joined with `, ` or as an array. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: Buffer;
}

/** Serves one request with `handler` (the request info already set, as the request-info filter sets it). */
export type ServeOne = (handler: (ctx: RequestContext) => Promise<void> | void, request: SuiteRequest) => Promise<SuiteAnswer>;

const names = namesFor('svc');
const protobufType = names.name('protobufMediaType');
const codec = protobufCodec(names);
const configMaps = '/api/v1/namespaces/default/configmaps';
const configMap: KubeObject & { data: Record<string, string> } = {
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1' },
};

/** Decodes the body as a create does and answers what it got. */
async function echoBody(ctx: RequestContext): Promise<void> {
  const decoded = await decodeBody(ctx, ['application/json']);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  writeObject(ctx, 201, {
    mediaType: decoded.value.mediaType,
    object: decoded.value.object,
    duplicateFields: decoded.value.duplicateFields ?? [],
    recorded: ctx.record.requestObject === decoded.value.object,
  });
}

const header = (answer: SuiteAnswer, name: string): string => {
  const v = answer.headers[name];
  return v === undefined ? '' : typeof v === 'string' ? v : v.join(', ');
};
const json = (answer: SuiteAnswer): unknown => JSON.parse(answer.body.toString('utf8')) as unknown;

/** Runs the suite against one transport. */
export function transportSuite(transport: string, serve: ServeOne): void {
  test(`${transport}: bodies are decoded by the server's decoder: YAML 1.1 with duplicate keys by line, JSON with duplicate fields by path, protobuf; 415 names what is taken`, async () => {
    const yaml = await serve(echoBody, {
      method: 'POST', path: configMaps, headers: { 'content-type': 'application/yaml' },
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n  a: "2"\n  b: yes\n',
    });
    assert.equal(yaml.code, 201);
    assert.deepEqual(json(yaml), {
      mediaType: 'application/yaml',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2', b: true } },
      duplicateFields: ['line 7: key "a" already set in map'],
      recorded: true,
    });

    const dup = await serve(echoBody, {
      method: 'POST', path: configMaps, headers: { 'content-type': 'application/json' },
      body: '{"kind":"ConfigMap","metadata":{"name":"j","name":"k"},"data":{"a":"1","a":"2"}}',
    });
    assert.equal(dup.code, 201);
    assert.deepEqual((json(dup) as { duplicateFields: string[] }).duplicateFields, ['duplicate field "metadata.name"', 'duplicate field "data.a"']);
    assert.deepEqual((json(dup) as { object: unknown }).object, { kind: 'ConfigMap', metadata: { name: 'k' }, data: { a: '2' } });

    const proto = await serve(echoBody, { method: 'POST', path: configMaps, headers: { 'content-type': protobufType }, body: codec.encode(configMap)! });
    assert.equal(proto.code, 201);
    assert.equal((json(proto) as { mediaType: string }).mediaType, protobufType);
    assert.deepEqual((json(proto) as { object: unknown }).object, configMap);

    const text = await serve(echoBody, { method: 'POST', path: configMaps, headers: { 'content-type': 'text/plain' }, body: 'a=1' });
    assert.equal(text.code, 415);
    assert.equal((json(text) as Status).reason, 'UnsupportedMediaType');
    assert.match((json(text) as Status).message ?? '', /application\/json, application\/yaml, application\/vnd\.svc\.protobuf/);

    const malformed = await serve(echoBody, { method: 'POST', path: configMaps, headers: { 'content-type': 'application/yaml' }, body: 'a: [1' });
    assert.equal(malformed.code, 400);
  });

  test(`${transport}: answers are negotiated by the server's writer: JSON, YAML, protobuf, Table, pretty; 406 for nothing it writes`, async () => {
    const get = (accept: string | undefined, query = '') => serve((ctx) => writeObject(ctx, 200, configMap), {
      method: 'GET', path: `${configMaps}/c${query}`, headers: accept === undefined ? {} : { accept },
    });
    const plain = await get(undefined);
    assert.equal(plain.code, 200);
    assert.equal(header(plain, 'content-type'), 'application/json');
    assert.equal(plain.body.toString('utf8'), `${JSON.stringify(configMap)}\n`);

    const yaml = await get('application/yaml');
    assert.equal(header(yaml, 'content-type'), 'application/yaml');
    assert.deepEqual(parseYaml(yaml.body.toString('utf8')), configMap);

    const proto = await get(`${protobufType}, application/json`);
    assert.equal(header(proto, 'content-type'), protobufType);
    assert.deepEqual([...proto.body.subarray(0, 4)], [...protobufPrefix]);
    const decoded = codec.decode(proto.body);
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value, configMap);

    const table = await get('application/json;as=Table;v=v1;g=meta.svc.io');
    assert.equal((json(table) as KubeObject).kind, 'Table');

    const pretty = await get(undefined, '?pretty=true');
    assert.equal(pretty.body.toString('utf8'), `${JSON.stringify(configMap, undefined, 2)}\n`);

    const refused = await get('text/html');
    assert.equal(refused.code, 406);
    assert.equal((json(refused) as Status).reason, 'NotAcceptable');
  });

  test(`${transport}: headers are the writer's: warnings once each as Warning 299, the request's own headers, Retry-After from a Status`, async () => {
    const answer = await serve((ctx) => {
      addWarning(ctx, 'first');
      addWarning(ctx, 'first');
      addWarning(ctx, 'a "quoted" one');
      ctx.record.responseHeaders['Audit-Id'] = 'an-audit-id';
      writeStatus(ctx, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'slow down', reason: 'TooManyRequests',
        details: { retryAfterSeconds: 3 }, code: 429,
      });
    }, { method: 'GET', path: `${configMaps}/c`, headers: {} });
    assert.equal(answer.code, 429);
    assert.deepEqual(parseWarnings(header(answer, 'warning')), ['first', 'a "quoted" one']);
    assert.equal(header(answer, 'audit-id'), 'an-audit-id');
    assert.equal(header(answer, 'retry-after'), '3');
    assert.equal((json(answer) as Status).message, 'slow down');
  });

  test(`${transport}: streams: a compact JSON list in parts, watches as JSON lines or protobuf frames, no YAML watch`, async () => {
    const list = (accept?: string) => serve((ctx) => {
      const stream = startJsonStream(ctx, 200);
      if (stream === undefined) return writeObject(ctx, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [configMap] });
      stream.write('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[');
      stream.write(Buffer.from(JSON.stringify(configMap)));
      stream.write(']}\n');
      stream.end();
    }, { method: 'GET', path: configMaps, headers: accept === undefined ? {} : { accept } });
    const streamed = await list();
    assert.equal(streamed.code, 200);
    assert.deepEqual(json(streamed), { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [configMap] });
    const yamlList = await list('application/yaml');
    assert.deepEqual(parseYaml(yamlList.body.toString('utf8')), { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [configMap] });

    const watch = (accept?: string) => serve((ctx) => {
      const stream = startWatch(ctx);
      stream.send({ type: 'ADDED', object: configMap });
      stream.write(Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object: configMap })}\n`));
      stream.end();
    }, { method: 'GET', path: `${configMaps}?watch=1`, headers: accept === undefined ? {} : { accept } });
    const lines = await watch();
    assert.equal(lines.code, 200);
    assert.equal(header(lines, 'content-type'), 'application/json');
    assert.deepEqual(lines.body.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string }).map((e) => e.type), ['ADDED', 'MODIFIED']);
    const frames = await watch(protobufType);
    assert.equal(header(frames, 'content-type'), `${protobufType};stream=watch`);
    assert.deepEqual(frames.body, Buffer.concat([
      codec.encodeWatchFrame({ type: 'ADDED', object: configMap })!, codec.encodeWatchFrame({ type: 'MODIFIED', object: configMap })!,
    ]));
    assert.equal((await watch('application/yaml')).code, 406);
  });

  test(`${transport}: a request that expired answers its Status once; what the handler writes later is dropped`, async () => {
    const answer = await serve((ctx) => {
      expire(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too late', reason: 'Timeout', code: 504 });
      writeObject(ctx, 200, configMap);
      writeStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'late', reason: 'InternalError', code: 500 });
    }, { method: 'GET', path: `${configMaps}/c`, headers: {} });
    assert.equal(answer.code, 504);
    assert.equal((json(answer) as Status).message, 'too late');
  });
}
