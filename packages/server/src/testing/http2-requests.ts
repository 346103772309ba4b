/**
 * HTTP/2 requests for the flow control tests against a real server: plain GETs with their latency, and creates
 * that hold their seats for as long as the test wants, as a client sending its body slowly does.
 */
import type { ClientHttp2Session } from 'node:http2';

/** An answer as a test reads it. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

/** A GET over an HTTP/2 session. */
export function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path, accept: 'application/json', ...headers });
    let body = '';
    let head: Record<string, string | string[] | undefined> = {};
    req.on('response', (h) => (head = h as Record<string, string | string[] | undefined>));
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body, ms: performance.now() - started }));
    req.on('error', reject);
    req.end();
  });
}

/**
 * A create of a configmap in `default` whose body comes only when `finish` is called: it holds its seat until then,
 * as a slow client does. `headers` add to the request's (impersonation).
 */
export function slowCreate(session: ClientHttp2Session, name: string, headers: Record<string, string> = {}): { answer: Promise<Answer>; finish(): void } {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const started = performance.now();
  const req = session.request({
    ':method': 'POST', ':path': '/api/v1/namespaces/default/configmaps', accept: 'application/json',
    'content-type': 'application/json', 'content-length': String(body.length), ...headers,
  });
  const answer = new Promise<Answer>((resolve) => {
    let text = '';
    let head: Record<string, string | string[] | undefined> = {};
    let ms = 0;
    req.on('response', (h) => {
      head = h as Record<string, string | string[] | undefined>;
      ms = performance.now() - started;
    });
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    const done = (): void => resolve({ status: Number(head[':status'] ?? 0), headers: head, body: text, ms });
    req.on('end', done);
    req.on('error', done);
  });
  req.write(body.slice(0, 10));
  return { answer, finish: () => req.end(body.slice(10)) };
}
