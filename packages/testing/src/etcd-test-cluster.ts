/**
 * Starts real etcd servers for tests: one- or several-member clusters on loopback ports chosen at run time, each
 * member's data in a temporary directory, stopped and removed by the test.
 *
 * etcd cannot listen on port 0 and report the port it got, so free ports are found by binding a socket to port 0
 * and releasing it before etcd binds it; a start that loses that race is retried with new ports. Written here
 * because no maintained npm package runs etcd processes for tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The `etcd` executable on PATH (or the Debian location), or `undefined` when etcd is not installed. */
export function findEtcdBinary(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== ''), '/usr/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'etcd');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

/** One etcd member of a test cluster. */
export interface EtcdTestMember {
  readonly name: string;
  /** `http://127.0.0.1:<port>`, the member's client URL. */
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  /** True while the member's process runs. */
  running(): boolean;
  /** Stops the member (SIGTERM, then SIGKILL after a grace period); its data stays for a restart. */
  stop(): Promise<void>;
  /** Kills the member at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts a stopped member again on the same ports and data, and waits until it is healthy. */
  restart(): Promise<void>;
}

/** A running test cluster. */
export interface EtcdTestCluster {
  /** Client URLs of every member, for `openEtcdBackend({ endpoints })`. */
  readonly endpoints: readonly string[];
  readonly members: readonly EtcdTestMember[];
  /** Stops every member and removes their data. */
  close(): Promise<void>;
}

/** Options of {@link startEtcdCluster}. */
export interface EtcdTestClusterOptions {
  /** Number of members (default 1). */
  readonly members?: number;
  /** The etcd executable (default {@link findEtcdBinary}). */
  readonly binary?: string;
  /** How long to wait for the cluster to become healthy (default 15 s). */
  readonly startTimeoutMs?: number;
}

/** A loopback port nobody listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * True when the member answers `/health` with a healthy status. Plain `http.get` without keep-alive: a pooled
 * connection (as `fetch` keeps) would hold the test process open for seconds after the cluster is gone.
 */
function healthy(clientUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(`${clientUrl}/health`, { agent: false, timeout: 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 && (JSON.parse(body) as { health?: unknown }).health === 'true');
        } catch {
          resolve(false);
        }
      });
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

interface MemberSpec {
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly dataDir: string;
}

/** Starts an etcd cluster of `members` members on loopback and waits until every member is healthy. */
export async function startEtcdCluster(options: EtcdTestClusterOptions = {}): Promise<EtcdTestCluster> {
  const binary = options.binary ?? findEtcdBinary();
  if (binary === undefined) throw new Error('etcd is not installed');
  const size = options.members ?? 1;
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  let lastError: unknown;
  // Retried because a port found free may be taken by someone else before etcd binds it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const root = await mkdtemp(join(tmpdir(), 'svc-etcd-'));
    try {
      return await startOnce(binary, size, root, timeoutMs);
    } catch (error) {
      lastError = error;
      await rm(root, { recursive: true, force: true });
    }
  }
  throw lastError;
}

async function startOnce(binary: string, size: number, root: string, timeoutMs: number): Promise<EtcdTestCluster> {
  const specs: MemberSpec[] = [];
  const taken = new Set<number>();
  const pick = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  for (let i = 0; i < size; i++) {
    specs.push({ name: `m${i}`, clientPort: await pick(), peerPort: await pick(), dataDir: join(root, `m${i}`) });
  }
  const initialCluster = specs.map((s) => `${s.name}=http://127.0.0.1:${s.peerPort}`).join(',');
  const token = `svc-test-${process.pid}-${Date.now().toString(36)}`;

  const members = specs.map((spec) => makeMember(binary, spec, initialCluster, token, timeoutMs));
  try {
    // Members of a new cluster wait for each other, so all start before any is waited on.
    for (const m of members) m.spawn();
    await Promise.all(members.map((m) => m.waitHealthy()));
  } catch (error) {
    await Promise.all(members.map((m) => m.member.kill()));
    throw error;
  }
  return {
    endpoints: members.map((m) => m.member.clientUrl),
    members: members.map((m) => m.member),
    async close() {
      // The data is thrown away, so there is nothing to shut down gracefully (a graceful stop of a multi-member
      // cluster waits for leadership transfer).
      await Promise.all(members.map((m) => m.member.kill()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

function makeMember(
  binary: string,
  spec: MemberSpec,
  initialCluster: string,
  token: string,
  timeoutMs: number,
): { member: EtcdTestMember; spawn(): void; waitHealthy(): Promise<void> } {
  const clientUrl = `http://127.0.0.1:${spec.clientPort}`;
  const peerUrl = `http://127.0.0.1:${spec.peerPort}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  /** The tail of the member's log, for the error when it fails to start. */
  let logTail = '';

  const spawnMember = (): void => {
    const args = [
      `--name=${spec.name}`,
      `--data-dir=${spec.dataDir}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-token=${token}`,
      '--initial-cluster-state=new',
      // Short raft timers: a loopback cluster elects a leader in well under a second.
      '--heartbeat-interval=50',
      '--election-timeout=500',
      '--logger=zap',
      '--log-level=error',
    ];
    // Only what etcd needs from the environment: stray ETCD_* variables would change its configuration.
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const proc = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    child = proc;
    logTail = '';
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      logTail = (logTail + chunk).slice(-4000);
    });
    exited = new Promise((resolve) => {
      proc.once('exit', () => {
        if (child === proc) child = undefined;
        resolve();
      });
      proc.once('error', (error) => {
        logTail += `\n${error.message}`;
        if (child === proc) child = undefined;
        resolve();
      });
    });
  };

  const waitHealthy = async (): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child === undefined) throw new Error(`etcd member ${spec.name} exited during start:\n${logTail}`);
      if (await healthy(clientUrl)) return;
      await sleep(50);
    }
    throw new Error(`etcd member ${spec.name} not healthy after ${timeoutMs} ms:\n${logTail}`);
  };

  const signal = async (first: NodeJS.Signals, graceMs: number): Promise<void> => {
    const proc = child;
    if (proc === undefined) return;
    proc.kill(first);
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!stopped) {
      proc.kill('SIGKILL');
      await exited;
    }
  };

  const member: EtcdTestMember = {
    name: spec.name,
    clientUrl,
    peerUrl,
    dataDir: spec.dataDir,
    running: () => child !== undefined,
    stop: () => signal('SIGTERM', 5000),
    kill: () => signal('SIGKILL', 5000),
    async restart() {
      if (child !== undefined) return;
      // With a data dir present etcd ignores the initial-cluster flags and rejoins as the member it was.
      spawnMember();
      await waitHealthy();
    },
  };
  return { member, spawn: spawnMember, waitHealthy };
}
