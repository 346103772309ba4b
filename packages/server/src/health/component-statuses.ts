/**
 * ComponentStatus (`/api/v1/componentstatuses`, deprecated since 1.19), answered as kube-apiserver 1.27's
 * componentstatus REST storage answers it: nothing is stored, every get and list probes the components there and
 * then. `etcd-0` is the store, probed with a real read (Healthy `ok`, or Unhealthy with the error); `controller-manager`
 * and `scheduler` are probed as kube probes them, over HTTPS without verification on their default secure ports on
 * 127.0.0.1 (10257 and 10259, path `/healthz`, 20 s): a 2xx or 3xx answer is Healthy with its body, another status
 * `HTTP probe failed with statuscode: <code>`, no answer the HTTP client's error in Go's words. This server runs the
 * controllers itself and has no scheduler, so those two report what is (or is not) listening there, as kube's do.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { httpsRequest } from '../outbound/https-request.js';
import type { HealthCheck } from './health-check.js';

/** kube's probeTimeOut. */
const probeTimeoutMs = 20_000;

/** One component's answer: the condition of type Healthy. */
interface Probed {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly message: string;
  readonly error: string;
}

/** A component and how it is probed. */
export interface ComponentServer {
  readonly name: string;
  probe(): Promise<Probed>;
}

/** A Node client error in the words of Go's net/http client (`dial tcp <addr>: connect: connection refused`). */
function goClientError(url: string, message: string): string {
  const refused = /^connect ECONNREFUSED (\S+)$/.exec(message);
  const detail = refused !== null ? `dial tcp ${refused[1]}: connect: connection refused`
    : /timed out/.test(message) ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
      : message;
  return `Get ${JSON.stringify(url)}: ${detail}`;
}

/** kube's HttpServer validator over an https URL (InsecureSkipVerify, as kube-apiserver probes these). */
export function httpComponent(name: string, url: string, timeoutMs = probeTimeoutMs): ComponentServer {
  return {
    name,
    async probe() {
      const answer = await httpsRequest(url, 'GET', { insecureSkipVerify: true, timeoutMs });
      if (!answer.ok) return { status: 'False', message: goClientError(url, answer.error), error: '' };
      const { status, body } = answer.value;
      if (status >= 200 && status < 400) return { status: 'True', message: body.toString('utf8'), error: '' };
      return { status: 'False', message: `HTTP probe failed with statuscode: ${status}`, error: '' };
    },
  };
}

/** kube's EtcdServer: the store's health probe (here, the `etcd` health check's read). */
export function storeComponent(name: string, check: HealthCheck): ComponentServer {
  return {
    name,
    async probe() {
      const failed = await check.check().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
      return failed === undefined ? { status: 'True', message: 'ok', error: '' } : { status: 'False', message: '', error: failed };
    },
  };
}

/** kube-apiserver 1.27's servers to validate: the two controllers on their default ports, then the store. */
export function defaultComponents(storeCheck: HealthCheck): ComponentServer[] {
  return [
    httpComponent('controller-manager', 'https://127.0.0.1:10257/healthz'),
    httpComponent('scheduler', 'https://127.0.0.1:10259/healthz'),
    storeComponent('etcd-0', storeCheck),
  ];
}

/** One ComponentStatus object (empty message and error are left out, as Go's omitempty does). */
function componentStatus(name: string, probed: Probed): KubeObject {
  return {
    kind: 'ComponentStatus', apiVersion: 'v1',
    metadata: { name },
    conditions: [{
      type: 'Healthy', status: probed.status,
      ...(probed.message === '' ? {} : { message: probed.message }),
      ...(probed.error === '' ? {} : { error: probed.error }),
    }],
  };
}

/** Probes every component at once; the objects sorted by name. */
export async function probeComponents(servers: readonly ComponentServer[]): Promise<KubeObject[]> {
  const probed = await Promise.all(servers.map(async (s) => componentStatus(s.name, await s.probe())));
  return probed.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}
