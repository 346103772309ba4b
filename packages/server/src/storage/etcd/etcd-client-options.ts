/**
 * How the etcd Backend configures its `etcd3` client: one function, so the client on the server's main thread
 * (watches, compaction) and the one on the KV thread (reads and writes, see kv-thread.ts) behave alike — same
 * TLS, message limits, keepalive, per-request deadline and fault handling.
 */
import { circuitBreaker, ConsecutiveBreaker, handleWhen, noop, retry } from 'cockatiel';
import { isRecoverableError, type IOptions } from 'etcd3';

/** TLS material for the connection to etcd (PEM contents, as read from kube-apiserver's `--etcd-*file` flags). */
export interface EtcdTlsOptions {
  /** CA bundle that signed the etcd servers' certificates (`--etcd-cafile`). */
  readonly ca: string | Buffer;
  /** Client certificate (`--etcd-certfile`), when etcd requires client authentication. */
  readonly cert?: string | Buffer;
  /** Client key (`--etcd-keyfile`). */
  readonly key?: string | Buffer;
}

/** What the client needs, as plain data (it crosses to the KV thread as worker data). */
export interface EtcdClientSettings {
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTlsOptions;
  /** Deadline of each unary request in ms; a request past it fails (the backend reports `Unavailable`). */
  readonly requestTimeoutMs: number;
}

const toBuffer = (value: string | Buffer | Uint8Array): Buffer =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);

/**
 * The `etcd3` options of a backend client. `repeatable`: the client sends only requests that are safe to send
 * twice (reads, compaction), which may then be tried again on another member.
 */
export function etcdClientOptions(settings: EtcdClientSettings, repeatable = false): IOptions {
  const { tls, requestTimeoutMs } = settings;
  const several = settings.endpoints.length > 1;
  return {
    hosts: [...settings.endpoints],
    ...(tls === undefined
      ? {}
      : {
          credentials: {
            rootCertificate: toBuffer(tls.ca),
            ...(tls.key === undefined ? {} : { privateKey: toBuffer(tls.key) }),
            ...(tls.cert === undefined ? {} : { certChain: toBuffer(tls.cert) }),
          },
        }),
    grpcOptions: {
      // Lists and watch batches can exceed gRPC's 4 MiB default; kube-apiserver lifts the limit the same way.
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
      // Notice a dead connection on an open stream (watch) instead of waiting forever.
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
    },
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + requestTimeoutMs }),
    faultHandling: {
      // A failing member is skipped for a second, then tried again, so service resumes soon after etcd returns.
      host: () => circuitBreaker(handleWhen(isRecoverableError), { halfOpenAfter: 1000, breaker: new ConsecutiveBreaker(3) }),
      // With several members a failed read is tried once more on another. A write never is: one whose connection
      // failed may have committed, and sent again it fails its own compare (409, or 404 if the object went
      // meanwhile) though it happened. It reaches the client as 503/504, an answer that says its outcome is
      // unknown; etcd's clientv3 does not repeat mutations either. With one member there is nothing to gain.
      global: several && repeatable ? retry(handleWhen(isRecoverableError), { maxAttempts: 1 }) : noop,
    },
  };
}
