/**
 * Small request helpers for integration tests: a response with its status, headers, text and parsed JSON.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RestClient } from '@svc-apiserver/client';

/** A response as the tests look at it. */
export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  readonly body: any;
}

/** Sends a request; a transport failure throws (tests want a loud failure there). */
export async function call(client: RestClient, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const h: Record<string, string> = { accept: 'application/json', ...headers };
  if (payload !== undefined && h['content-type'] === undefined) h['content-type'] = 'application/json';
  const res = await client.raw({ method, path, headers: h, ...(payload === undefined ? {} : { body: payload }) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.error.message ?? 'transport failure'}`);
  const text = res.value.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.value.status, headers: res.value.headers, text, body: parsed };
}

/** Polls `probe` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Creates a namespace and fails the test unless the server answers 201. */
export async function createNamespace(client: RestClient, name: string): Promise<void> {
  const r = await call(client, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (r.status !== 201) throw new Error(`create namespace ${name}: ${r.status} ${r.text}`);
}
