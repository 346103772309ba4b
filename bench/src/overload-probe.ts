/**
 * The probes of the overload benchmark, on a thread of their own: an administrator (exempt) reading a configmap
 * and an anonymous client reading /livez, one request at a time every 20 ms each, from `start` to `stop`. On its
 * own thread a probe's latency is the server's and not the wait for the flooding thread's event loop, which is
 * busy sending ten times what the server serves.
 *
 * Messages: the parent posts `{ type: 'start' }` and later `{ type: 'stop' }`; the thread answers the stop with
 * `{ exempt, livez }`, the samples of each probe since the start. `{ type: 'close' }` ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sessionPool, type Sample } from './overload-requests.js';

/** What the parent gives the thread. */
export interface ProbeData {
  readonly url: string;
  /** The administrator's TLS credentials (the anonymous probe uses `ca` alone). */
  readonly tls: { readonly ca?: string | Buffer; readonly cert?: string | Buffer; readonly key?: string | Buffer };
  /** The exempt GET's path. */
  readonly exemptPath: string;
}

/** A message of the parent. */
export type ProbeCommand = { readonly type: 'start' | 'stop' | 'close' };

/** The samples of one start-to-stop period. */
export interface ProbeSamples {
  readonly exempt: readonly Sample[];
  readonly livez: readonly Sample[];
}

const everyMs = 20;

async function probe(sessions: ReturnType<typeof sessionPool>, path: string, running: () => boolean): Promise<Sample[]> {
  const out: Sample[] = [];
  while (running()) {
    out.push(await sessions.get(path));
    await new Promise((done) => setTimeout(done, everyMs));
  }
  return out;
}

if (parentPort !== null) {
  const port = parentPort;
  const data = workerData as ProbeData;
  const admin = sessionPool(data.url, data.tls, 1);
  const anonymous = sessionPool(data.url, data.tls.ca === undefined ? {} : { ca: data.tls.ca }, 1);
  let running = false;
  let period: Promise<[Sample[], Sample[]]> | undefined;
  port.on('message', (m: ProbeCommand) => {
    if (m.type === 'start') {
      running = true;
      period = Promise.all([probe(admin, data.exemptPath, () => running), probe(anonymous, '/livez', () => running)]);
    } else if (m.type === 'stop') {
      running = false;
      void period?.then(([exempt, livez]) => port.postMessage({ exempt, livez } satisfies ProbeSamples));
    } else {
      admin.close();
      anonymous.close();
      port.close();
    }
  });
}
