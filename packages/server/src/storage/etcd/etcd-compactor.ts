/**
 * Compaction of etcd by several API server replicas, as kube-apiserver's etcd3 compactor does it: every replica
 * ticks each interval, but a compaction happens only through a transaction on one shared key (`compact_rev_key`)
 * guarded by that key's version. The replica whose transaction wins compacts to the revision it saw one interval
 * earlier (so one interval of history stays readable); the others learn the key's new version and try again next
 * interval. The key sits outside any `--etcd-prefix`, so every server on one etcd cluster takes turns.
 */
import type { Etcd3 } from 'etcd3';

/** The key kube-apiserver's compactor coordinates through. */
export const compactRevisionKey = 'compact_rev_key';

/** Options of {@link startEtcdCompactor}. */
export interface EtcdCompactorOptions {
  /** Time between attempts (`--etcd-compaction-interval`). */
  readonly intervalMs: number;
  /** Told when an attempt fails (etcd unavailable); the compactor keeps going. */
  readonly onError?: (error: unknown) => void;
  /** Told after this replica compacted (for logs and tests). */
  readonly onCompacted?: (revision: number) => void;
}

/** A running compactor. */
export interface EtcdCompactor {
  /** One attempt now (what each interval does); resolves after it. */
  tick(): Promise<void>;
  stop(): void;
}

/** The outcome of one attempt. */
interface Round {
  /** The compaction key's version this replica now knows. */
  readonly version: number;
  /** etcd's revision when the attempt ran: the next winner compacts to it. */
  readonly revision: number;
  /** Set when this replica compacted. */
  readonly compacted?: number;
}

/**
 * One round of kube's `compact(t, rev)`: if the key's version is still `version`, write `revision` to it and
 * compact to `revision` (not on the first round, whose `revision` is 0).
 */
async function compactRound(client: Etcd3, version: number, revision: number): Promise<Round> {
  const key = Buffer.from(compactRevisionKey);
  const r = await client.kv.txn({
    compare: [{ key, target: 'Version', result: 'Equal', version }],
    success: [{ request_put: { key, value: Buffer.from(String(revision)) } }],
    failure: [{ request_range: { key } }],
  });
  const current = Number(r.header.revision);
  if (!r.succeeded) {
    const kv = r.responses[0]?.response_range?.kvs[0];
    return { version: Number(kv?.version ?? 0), revision: current };
  }
  if (revision === 0) return { version: version + 1, revision: current };
  try {
    await client.kv.compact({ revision });
  } catch (error) {
    // Another server on the same etcd (with its own key history) already compacted past it: nothing lost.
    if (!String(error).includes('required revision has been compacted')) throw error;
  }
  return { version: version + 1, revision: current, compacted: revision };
}

/** Starts the compactor: the first attempt after one interval, as kube's. */
export function startEtcdCompactor(client: Etcd3, options: EtcdCompactorOptions): EtcdCompactor {
  let version = 0;
  let revision = 0;
  let chain: Promise<void> = Promise.resolve();
  let running = false;
  const once = async (): Promise<void> => {
    const round = await compactRound(client, version, revision);
    version = round.version;
    revision = round.revision;
    if (round.compacted !== undefined) options.onCompacted?.(round.compacted);
  };
  const tick = (): Promise<void> => {
    chain = chain.then(async () => {
      running = true;
      try {
        await once();
      } catch (error) {
        options.onError?.(error);
      } finally {
        running = false;
      }
    });
    return chain;
  };
  const timer = options.intervalMs > 0 ? setInterval(() => {
    // A slow attempt makes the timer skip rather than pile attempts up.
    if (!running) void tick();
  }, options.intervalMs) : undefined;
  timer?.unref();
  return {
    tick,
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
