/**
 * One client of a reliability run: a loop of random requests (get, list, create, update, merge/JSON/strategic
 * patch, server-side apply, delete) on a small pool of ConfigMaps, each recorded with its invocation and answer
 * times. Every write sets `data.w` to a value no other write uses, so whatever later reads or watches show names the
 * write they saw. Compare-and-swap writes use a resourceVersion this client saw in an answer, as a real client does.
 *
 * Answers are read as kube-apiserver gives them: 200/201 with the object, 404 NotFound, 409 AlreadyExists or
 * Conflict. No answer, a 5xx or a 429 leaves the outcome unknown (the write may have happened); a refused connection
 * means the request never left. Any other answer is reported as unexpected.
 */
import { createClient, type RestClient } from '@svc-apiserver/client';
import type { ClientVerb, ListedObject, RecordedOperation } from './history-operation.js';
import type { RegisterInput, RegisterOutput } from './linearizability-register-model.js';
import type { Replica, ReplicaLife } from './history-servers.js';

/** Relative weights of the verbs a client picks from. */
export type VerbMix = Readonly<Partial<Record<ClientVerb, number>>>;

/** Options of {@link startHistoryClient}. */
export interface HistoryClientOptions {
  readonly id: string;
  readonly namespace: string;
  /** The ConfigMap names the client works on. */
  readonly names: readonly string[];
  readonly mix: VerbMix;
  /** Share of updates, merge and strategic patches and deletes sent with a resourceVersion precondition. */
  readonly preconditionRate: number;
  readonly random: () => number;
  /** The replica for the next request. */
  readonly pickReplica: () => Replica;
  /** Receives each operation as it completes. */
  readonly record: (op: Omit<RecordedOperation, 'id'>) => void;
  /** Receives an answer no request of the harness should get. */
  readonly unexpected: (op: Omit<RecordedOperation, 'id'>, text: string) => void;
  /** A value no other write uses. */
  readonly nextValue: () => string;
  /** Request timeout (default 15 s). */
  readonly timeoutMs?: number;
}

/** A running client. */
export interface HistoryClient {
  /** Holds the loop after its current request; resolves when that request is done. */
  pause(): Promise<void>;
  resume(): void;
  /** Ends the loop after its current request. */
  stop(): Promise<void>;
}

interface Request {
  readonly verb: ClientVerb;
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: unknown;
  readonly name?: string;
  readonly input?: RegisterInput;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Picks a verb by weight. */
function pickVerb(mix: VerbMix, random: () => number): ClientVerb {
  const entries = Object.entries(mix) as [ClientVerb, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let x = random() * total;
  for (const [verb, w] of entries) {
    x -= w;
    if (x < 0) return verb;
  }
  return entries[entries.length - 1]![0];
}

/** The object's resourceVersion and value from a ConfigMap body. */
function objectOf(body: unknown): { rv: number; value: string; name: string } | undefined {
  const o = body as { metadata?: { resourceVersion?: string; name?: string }; data?: { w?: string } } | undefined;
  const rv = Number(o?.metadata?.resourceVersion);
  if (!Number.isSafeInteger(rv) || rv <= 0) return undefined;
  return { rv, value: o?.data?.w ?? '', name: o?.metadata?.name ?? '' };
}

/** Reads an answer as the model's output; a string when the answer is not one the request can get. */
function outputOf(req: Request, status: number, body: unknown): RegisterOutput | { kind: 'list'; rv: number; items: ListedObject[] } | string {
  const reason = (body as { reason?: unknown } | undefined)?.reason;
  if (status >= 500 || status === 429) return { kind: 'unknown' };
  if (req.verb === 'list') {
    const list = body as { metadata?: { resourceVersion?: string }; items?: unknown[] } | undefined;
    const rv = Number(list?.metadata?.resourceVersion);
    if (status !== 200 || !Number.isSafeInteger(rv)) return `list answered ${status}`;
    const items: ListedObject[] = [];
    for (const item of list?.items ?? []) {
      const o = objectOf(item);
      if (o === undefined) return 'a listed object has no resourceVersion';
      items.push(o);
    }
    return { kind: 'list', rv, items };
  }
  if (status === 404 && req.verb !== 'create' && req.verb !== 'apply') return req.verb === 'get' ? { kind: 'absent' } : { kind: 'notFound' };
  if (status === 409 && reason === 'AlreadyExists' && req.verb === 'create') return { kind: 'exists' };
  if (status === 409 && reason === 'Conflict' && req.verb !== 'get') return { kind: 'conflict' };
  if (req.verb === 'delete' && (status === 200 || status === 202)) return { kind: 'deleted' };
  const created = status === 201;
  // A create answers 201 only; apply 201 when it created the object, 200 when it updated it; the rest 200.
  const success = req.verb === 'create' ? created : req.verb === 'apply' ? created || status === 200 : status === 200;
  if (success) {
    const o = objectOf(body);
    if (o === undefined) return `answered ${status} without a resourceVersion`;
    if (req.verb === 'get') return { kind: 'found', rv: o.rv, value: o.value };
    return { kind: 'written', rv: o.rv, created };
  }
  return `answered ${status}${typeof reason === 'string' ? ` ${reason}` : ''}`;
}

/** Starts a client loop. */
export function startHistoryClient(options: HistoryClientOptions): HistoryClient {
  const { namespace, random } = options;
  const collection = `/api/v1/namespaces/${namespace}/configmaps`;
  /** resourceVersions this client saw in answers, per object. */
  const known = new Map<string, number>();
  const clients = new Map<string, { life: ReplicaLife; client: RestClient }>();
  let stopped = false;
  let paused: Promise<void> | undefined;
  let unpause: (() => void) | undefined;
  let idle: () => void = () => {};
  let busy = false;

  const clientFor = (replica: Replica, life: ReplicaLife): RestClient => {
    const held = clients.get(replica.name);
    if (held !== undefined && held.life === life) return held.client;
    held?.client.close();
    const client = createClient(life.config, { timeoutMs: options.timeoutMs ?? 15_000 });
    clients.set(replica.name, { life, client });
    return client;
  };

  const plan = (): Request => {
    const verb = pickVerb(options.mix, random);
    const name = options.names[Math.floor(random() * options.names.length)]!;
    const path = `${collection}/${name}`;
    const rv = known.get(name);
    const precondition = rv !== undefined && random() < options.preconditionRate ? rv : undefined;
    const value = verb === 'get' || verb === 'list' || verb === 'delete' ? '' : options.nextValue();
    const object = (resourceVersion?: number): unknown => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: resourceVersion === undefined ? { name } : { name, resourceVersion: String(resourceVersion) },
      data: { w: value },
    });
    const write = (expectedRv: number | undefined): RegisterInput =>
      expectedRv === undefined ? { kind: 'write', value, mustExist: true } : { kind: 'write', value, mustExist: true, expectedRv };
    const patchBody = (): unknown =>
      precondition === undefined ? { data: { w: value } } : { metadata: { resourceVersion: String(precondition) }, data: { w: value } };
    switch (verb) {
      case 'get':
        return { verb, method: 'GET', path, name, input: { kind: 'read' } };
      case 'list':
        return { verb, method: 'GET', path: collection };
      case 'create':
        return { verb, method: 'POST', path: collection, body: object(), name, input: { kind: 'create', value } };
      case 'update':
        return { verb, method: 'PUT', path, body: object(precondition), name, input: write(precondition) };
      case 'patch-merge':
        return { verb, method: 'PATCH', path, contentType: 'application/merge-patch+json', body: patchBody(), name, input: write(precondition) };
      case 'patch-strategic':
        return { verb, method: 'PATCH', path, contentType: 'application/strategic-merge-patch+json', body: patchBody(), name, input: write(precondition) };
      case 'patch-json':
        return {
          verb, method: 'PATCH', path, contentType: 'application/json-patch+json',
          body: [{ op: 'add', path: '/data/w', value }], name, input: write(undefined),
        };
      case 'apply':
        return {
          verb, method: 'PATCH', path: `${path}?fieldManager=${options.id}&force=true`, contentType: 'application/apply-patch+yaml',
          body: object(), name, input: { kind: 'write', value, mustExist: false },
        };
      case 'delete':
        return {
          verb, method: 'DELETE', path, name,
          ...(precondition === undefined
            ? { input: { kind: 'delete' } as RegisterInput }
            : {
              body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: String(precondition) } },
              input: { kind: 'delete', expectedRv: precondition } as RegisterInput,
            }),
        };
    }
  };

  const once = async (): Promise<void> => {
    const replica = options.pickReplica();
    const life = replica.current() ?? (await replica.whenUp());
    // Paused while waiting for the replica (a crash): hold this request back, the run is checking the store.
    if (paused !== undefined || stopped) return;
    const client = clientFor(replica, life);
    const req = plan();
    const call = performance.now();
    const res = await client.raw({
      method: req.method,
      path: req.path,
      headers: { accept: 'application/json', 'content-type': req.contentType ?? 'application/json' },
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
    });
    const ret = performance.now();
    const base = {
      client: options.id, replica: replica.name, generation: life.generation, verb: req.verb, call, return: ret,
      ...(req.name === undefined ? {} : { name: req.name }),
      ...(req.input === undefined ? {} : { input: req.input }),
    };
    if (!res.ok) {
      const message = res.error.message ?? 'transport failure';
      // The connection was refused: the request never reached a server (which is down); nothing to record.
      if (message.includes('ECONNREFUSED')) {
        await sleep(20);
        return;
      }
      options.record({ ...base, output: { kind: 'unknown' }, detail: message });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(res.value.body.toString('utf8'));
    } catch {
      body = undefined;
    }
    const output = outputOf(req, res.value.status, body);
    if (typeof output === 'string') {
      const op = { ...base, output: { kind: 'unknown' } as RegisterOutput, status: res.value.status, detail: output };
      options.record(op);
      const { 'content-type': type, 'content-length': length } = res.value.headers;
      options.unexpected(op, `${req.verb} ${req.name ?? ''} on ${replica.name} life ${life.generation}: ${output} (${type ?? 'no content-type'}, ${length ?? 'no'} content-length): ${res.value.body.toString('utf8').slice(0, 300)}`);
      return;
    }
    if (output.kind === 'found' || output.kind === 'written') known.set(req.name!, output.rv);
    if (output.kind === 'deleted' || output.kind === 'absent' || output.kind === 'notFound') known.delete(req.name!);
    if (output.kind === 'list') for (const item of output.items) known.set(item.name, item.rv);
    const detail = output.kind === 'unknown' ? `answered ${res.value.status}` : undefined;
    options.record({ ...base, output, status: res.value.status, ...(detail === undefined ? {} : { detail }) });
  };

  const loop = (async () => {
    while (!stopped) {
      if (paused !== undefined) {
        idle();
        await paused;
        continue;
      }
      busy = true;
      try {
        await once();
      } finally {
        busy = false;
      }
    }
    for (const { client } of clients.values()) client.close();
    idle();
  })();

  const resume = (): void => {
    const release = unpause;
    paused = undefined;
    unpause = undefined;
    release?.();
  };
  return {
    pause() {
      paused ??= new Promise((resolve) => (unpause = resolve));
      if (!busy) return Promise.resolve();
      return new Promise((resolve) => (idle = resolve));
    },
    resume,
    async stop() {
      stopped = true;
      resume();
      await loop;
    },
  };
}
