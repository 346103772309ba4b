/**
 * A small HTTPS client for the authenticators that call out (OIDC discovery and keys, token webhooks): a given
 * CA bundle (or the host's roots), an optional client certificate, a timeout and a response size limit.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** Where and how to connect. */
export interface HttpsTarget {
  /** PEM CA bundle; the host's root CAs when absent. */
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly insecureSkipVerify?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** A response: status and body. */
export interface HttpsResponse {
  readonly status: number;
  readonly body: Buffer;
}

const maxBodyBytes = 4 * 1024 * 1024;

/** Sends one request; failures (connection, TLS, timeout, oversized body) come back as an error value. */
export function httpsRequest(url: string, method: string, target: HttpsTarget, body?: string): Promise<Result<HttpsResponse, string>> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve(fail(`invalid URL ${url}`));
      return;
    }
    if (u.protocol !== 'https:') {
      resolve(fail(`only https URLs are allowed: ${url}`));
      return;
    }
    const headers: Record<string, string> = { ...(target.headers ?? {}) };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const onResponse = (res: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBodyBytes) {
          req.destroy();
          resolve(fail(`response from ${u.host} is too large`));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve(ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) })));
      res.on('error', (e) => resolve(fail(e.message)));
    };
    let req: ReturnType<typeof request>;
    try {
      req = request(u, {
        method,
        headers,
        ...(target.ca !== undefined ? { ca: target.ca } : {}),
        ...(target.cert !== undefined ? { cert: target.cert } : {}),
        ...(target.key !== undefined ? { key: target.key } : {}),
        rejectUnauthorized: target.insecureSkipVerify !== true,
        timeout: target.timeoutMs ?? 10_000,
      }, onResponse);
    } catch (e) {
      // Bad header values (a credential with a newline) throw synchronously.
      resolve(fail((e as Error).message));
      return;
    }
    req.on('timeout', () => req.destroy(new Error(`request to ${u.host} timed out`)));
    req.on('error', (e) => resolve(fail(e.message)));
    req.end(body);
  });
}

/** GETs a JSON document (status 200 required). */
export async function httpsGetJson(url: string, target: HttpsTarget): Promise<Result<unknown, string>> {
  const res = await httpsRequest(url, 'GET', { ...target, headers: { accept: 'application/json', ...(target.headers ?? {}) } });
  if (!res.ok) return res;
  if (res.value.status !== 200) return fail(`${url}: status ${res.value.status}`);
  try {
    return ok(JSON.parse(res.value.body.toString('utf8')));
  } catch {
    return fail(`${url}: response is not JSON`);
  }
}
