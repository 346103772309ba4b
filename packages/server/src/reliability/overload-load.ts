/**
 * The load of the overload tests, in its own process so that the probes measuring the server do not wait behind it:
 * forked with {url, ca, token, clients}, it runs that many independent HTTP/1.1 clients (one keep-alive connection
 * each), every one sending lists and creates of ConfigMaps back to back and, as client-go does, waiting out a 429's
 * `Retry-After`. It reports once every client has been answered, and on `stop` sends its tally.
 */
import { Agent, request } from 'node:https';

/** What the load is told. */
export interface LoadOptions {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  readonly clients: number;
  readonly namespace: string;
}

/** What the load reports. */
export type LoadMessage =
  | { readonly kind: 'running' }
  | { readonly kind: 'tally'; readonly tally: LoadTally };

/** Answers by status (-1: no answer), and one 429 as it came. */
export interface LoadTally {
  readonly statuses: Record<string, number>;
  readonly tooMany?: { readonly retryAfter: string | undefined; readonly body: string };
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const target = new URL(options.url);
const statuses: Record<string, number> = {};
let tooMany: LoadTally['tooMany'];
let stopping = false;

function send(agent: Agent, method: string, path: string, body?: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const req = request({
      host: target.hostname, port: target.port, method, path, agent,
      headers: { authorization: `Bearer ${options.token}`, accept: 'application/json', 'content-type': 'application/json' },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        if (res.statusCode === 429) tooMany ??= { retryAfter, body: text };
        resolve({ status: res.statusCode ?? -1, ...(retryAfter !== undefined ? { retryAfter } : {}) });
      });
      res.on('error', () => resolve({ status: -1 }));
    });
    req.setTimeout(60_000, () => req.destroy());
    req.on('error', () => resolve({ status: -1 }));
    req.end(body);
  });
}

async function client(index: number, answered: () => void): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: options.ca });
  const collection = `/api/v1/namespaces/${options.namespace}/configmaps`;
  let first = true;
  for (let i = 0; !stopping; i++) {
    const write = (index + i) % 5 === 0;
    const r = write
      ? await send(agent, 'POST', collection, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'load-' }, data: { i: String(i) } }))
      : await send(agent, 'GET', `${collection}?limit=100`);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (first) {
      first = false;
      answered();
    }
    const wait = r.status === 429 ? Number(r.retryAfter ?? 1) * 1000 : r.status === -1 ? 100 : 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  agent.destroy();
}

let waiting = options.clients;
for (let i = 0; i < options.clients; i++) {
  void client(i, () => {
    if (--waiting === 0) process.send?.({ kind: 'running' } satisfies LoadMessage);
  });
}
process.on('message', () => {
  stopping = true;
  process.send?.({ kind: 'tally', tally: { statuses, ...(tooMany ? { tooMany } : {}) } } satisfies LoadMessage, () => process.exit(0));
});
