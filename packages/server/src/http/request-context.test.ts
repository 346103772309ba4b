import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, constants, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { namesFor } from '@svc-apiserver/api';
import { createLiveRequests } from './live-requests.js';
import { createRequestContext, type NodeRequest, type NodeResponse } from './request-context.js';
import { parseRequestInfo } from './parse-request-info.js';
import { transportSuite, type ServeOne, type SuiteAnswer } from './transport-suite.js';
import { parseRequestTarget } from './request-target.js';
import type { RequestContext } from './context.js';
import { startWatch, writeStatus } from './response-writer.js';

/** Serves one request with `handle` on a loopback server and answers its status code. */
async function serveOne(handle: (ctx: RequestContext, live: ReturnType<typeof createLiveRequests>) => void): Promise<number> {
  const live = createLiveRequests();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handle(createRequestContext(req, res, parseRequestTarget(req.url ?? '/')!, { names: namesFor('svc'), maxRequestBodyBytes: 1024, liveRequests: live }), live);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/x?a=1' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject).end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('a shutdown before the signal is first read still shows as an aborted signal', async () => {
  const code = await serveOne((ctx, live) => {
    assert.equal(live.size(), 1, 'the request is tracked before its signal exists');
    live.abortAll();
    assert.equal(ctx.signal.aborted, true);
    assert.equal(ctx.query.get('a'), '1');
    writeStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', reason: 'ServiceUnavailable', code: 503 });
  });
  assert.equal(code, 503);
});

test('a signal read before a shutdown is aborted by it', async () => {
  const code = await serveOne((ctx, live) => {
    const signal = ctx.signal;
    assert.equal(signal.aborted, false);
    live.abortAll();
    assert.equal(signal.aborted, true);
    assert.equal(ctx.signal, signal, 'one signal per request');
    writeStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', reason: 'ServiceUnavailable', code: 503 });
  });
  assert.equal(code, 503);
});

test('abort listeners are told once, without a signal; one added after the abort is told at once', async () => {
  const code = await serveOne((ctx, live) => {
    const told: string[] = [];
    ctx.transport.onAbort(() => told.push('before'));
    live.abortAll();
    live.abortAll();
    ctx.transport.onAbort(() => told.push('after'));
    assert.deepEqual(told, ['before', 'after']);
    assert.equal(ctx.signal.aborted, true, 'a signal made later is born aborted');
    writeStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', reason: 'ServiceUnavailable', code: 503 });
  });
  assert.equal(code, 503);
});

test('an HTTP/2 watch response dropped before its client took its end is reset with CANCEL, never seen as complete', async () => {
  const live = createLiveRequests();
  const server = createHttp2Server((req, res) => {
    const ctx = createRequestContext(req, res, parseRequestTarget(req.url ?? '/')!, { names: namesFor('svc'), maxRequestBodyBytes: 1024, liveRequests: live });
    const stream = startWatch(ctx);
    // More than the client's flow control window: the end waits behind what the client has not read.
    const line = `${JSON.stringify({ type: 'ADDED', object: { data: 'x'.repeat(1000) } })}\n`;
    for (let i = 0; i < 1000; i++) stream.write(line);
    stream.end();
    setTimeout(() => stream.abort(), 100);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const req = client.request({ ':path': '/api/v1/configmaps?watch=1' });
    req.on('error', () => {});
    let ended = false;
    req.on('end', () => (ended = true));
    const closed = new Promise((resolve) => req.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.resume();
    await closed;
    assert.equal(req.rstCode, constants.NGHTTP2_CANCEL);
    assert.equal(ended, false, 'a dropped response does not end as a finished one');
  } finally {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Serves one request over a loopback server of `protocol` with a context made as the HTTPS server makes it. */
function serveOver(protocol: 'HTTP/1.1' | 'HTTP/2'): ServeOne {
  return async (handler, sent) => {
    const live = createLiveRequests();
    const options = { names: namesFor('svc'), maxRequestBodyBytes: 1024 * 1024, liveRequests: live };
    const onRequest = (req: NodeRequest, res: NodeResponse): void => {
      const ctx = createRequestContext(req, res, parseRequestTarget(req.url ?? '/')!, options);
      const info = parseRequestInfo(ctx.method, ctx.path, ctx.query);
      assert.ok(info.ok);
      ctx.info = info.value;
      void handler(ctx);
    };
    const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
    if (protocol === 'HTTP/1.1') {
      const server = createServer(onRequest);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        return await new Promise<SuiteAnswer>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: sent.method, path: sent.path, headers: sent.headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end(body);
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
    const server = createHttp2Server(onRequest);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      return await new Promise<SuiteAnswer>((resolve, reject) => {
        const req = client.request({ ':method': sent.method, ':path': sent.path, ...sent.headers });
        const chunks: Buffer[] = [];
        let head: Record<string, string | string[] | undefined> = {};
        let code = 0;
        req.on('response', (h) => {
          code = Number(h[':status']);
          head = h;
        });
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => resolve({ code, headers: head, body: Buffer.concat(chunks) }));
        req.on('error', reject);
        req.end(body);
      });
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  };
}

transportSuite('node HTTP/1.1', serveOver('HTTP/1.1'));
transportSuite('node HTTP/2', serveOver('HTTP/2'));
