/**
 * The fuzzer's cases: one request per case, chosen by a seeded generator from the case's own stream, so case `i` of
 * a seed is always the same request. Each case belongs to one category (what it probes) and goes over HTTP/1.1 or
 * HTTP/2, with admin, unprivileged, anonymous or garbage credentials.
 *
 * The objects seeded before a run must stay unchanged: requests with admin rights never write to the seed
 * namespace (an unprivileged user may try, and must be refused), and never delete namespaces the run depends on.
 */
import type { Names } from '@svc-apiserver/api';
import type { ResourceFixture } from '../e2e/fixtures.js';
import type { Random } from './fuzz-random.js';
import type { ClientIdentity, FuzzBody, FuzzRequest } from './fuzz-transport.js';
import {
  copyJson, interestingDepth, jsonText, mutateObject, nested, nestedText, oddKey, oddNumber, oddString, percentEncode, randomJson,
  type Json,
} from './fuzz-values.js';
import { aliasBomb, yamlBody, yamlText } from './fuzz-yaml.js';
import { protobufBody, type ProtobufEncoder } from './fuzz-protobuf.js';
import { fuzzCrd, fuzzCrdGroup, fuzzWebhookConfiguration, fuzzWidget } from './fuzz-extensions.js';

/** What a case probes. */
export const categories = [
  'json-body', 'yaml-body', 'protobuf-body', 'json-patch', 'merge-patch', 'strategic-patch', 'apply', 'selector', 'query',
  'path', 'header', 'body-size', 'tls', 'watch', 'slow', 'crd', 'custom-object', 'webhook-config', 'all-namespaces',
] as const;

/** A category. */
export type Category = (typeof categories)[number];

/** What the generators know about the server under test. */
export interface FuzzWorld {
  readonly names: Names;
  readonly fixtures: readonly ResourceFixture[];
  /** Where admin cases write. */
  readonly namespace: string;
  /** Where the unprivileged user may write. */
  readonly userNamespace: string;
  /** The seeded objects: read-only for the fuzzer. */
  readonly seedNamespace: string;
  readonly adminToken: string;
  readonly userToken: string;
  /** Client certificates of every oddity (foreign CA, expired, control characters in the subject, ...). */
  readonly identities: readonly ClientIdentity[];
  readonly protobuf: ProtobufEncoder;
  readonly maxBodyBytes: number;
  readonly depthLimit: number;
  /** The server's --request-timeout. */
  readonly requestTimeoutMs: number;
}

/** One case. */
export interface FuzzCase {
  readonly index: number;
  readonly category: Category;
  readonly request: FuzzRequest;
  /** The credentials it went with. */
  readonly as: 'admin' | 'user' | 'anonymous' | 'garbage';
  /**
   * The only codes a correct server answers, when the case knows them (besides 401, 403 and 429, which depend on
   * who asks and on the load): a request kube-apiserver does not route must never be served.
   */
  readonly expect?: readonly number[];
}

const weights: readonly (readonly [number, Category])[] = [
  [14, 'json-body'], [12, 'yaml-body'], [5, 'protobuf-body'], [6, 'json-patch'], [5, 'merge-patch'], [6, 'strategic-patch'],
  [8, 'apply'], [8, 'selector'], [8, 'query'], [8, 'path'], [8, 'header'], [2, 'body-size'], [2, 'tls'], [3, 'watch'],
  [0.15, 'slow'], [2, 'crd'], [5, 'custom-object'], [2, 'webhook-config'], [1.5, 'all-namespaces'],
];

/** Keys of the largest ConfigMap applied: 100,000 in the soak run, 20,000 otherwise. */
const bigApplyKeys = (): number => (process.env['SVC_SOAK'] === '1' ? 100_000 : 20_000);

/** Extra time a request may take beyond the deadline the server sets itself. */
const slackMs = 10_000;

type Credential = FuzzCase['as'];

interface Draft {
  method: string;
  target: string;
  headers: [string, string][];
  body?: FuzzBody;
  protocol: 'http1' | 'http2';
  raw?: Buffer;
  chunked?: boolean;
  declaredLength?: number;
  identity?: ClientIdentity;
  deadlineMs: number;
  closeAfter?: boolean;
  headersOnly?: boolean;
  expect?: readonly number[];
}

/** The collection path of a resource in a namespace (or cluster-wide). */
function collection(f: ResourceFixture, namespace: string): string {
  const root = f.group === '' ? `/api/${f.version}` : `/apis/${f.group}/${f.version}`;
  return f.namespaced ? `${root}/namespaces/${namespace}/${f.resource}` : `${root}/${f.resource}`;
}

function objectName(r: Random): string {
  return r.weighted<() => string>([
    [12, () => `fz-${r.int(12)}`],
    [1, () => oddString(r, 40)],
    [1, () => `fz-${r.text(r.pick([63, 64, 253, 254, 5000]))}`],
  ])();
}

/** The fuzzer's generator of cases. */
export function generateCase(world: FuzzWorld, random: Random, index: number, only?: Category): FuzzCase {
  const r = random;
  const category = only ?? r.weighted(weights);
  const as: Credential = category === 'tls' ? r.pick(['admin', 'anonymous'] as const)
    : category === 'crd' || category === 'webhook-config' ? r.weighted<Credential>([[9, 'admin'], [1, 'user']])
      : r.weighted<Credential>([[62, 'admin'], [25, 'user'], [9, 'anonymous'], [4, 'garbage']]);
  const fixture = r.pick(world.fixtures);
  const ns = as === 'admin' ? r.weighted([[8, world.namespace], [1, world.userNamespace]]) : r.weighted([[6, world.userNamespace], [2, world.namespace], [2, world.seedNamespace]]);
  const draft: Draft = {
    method: 'GET', target: '/version', headers: [['Accept', 'application/json']],
    protocol: r.chance(0.6) ? 'http1' : 'http2', deadlineMs: world.requestTimeoutMs + slackMs,
  };
  const object = (): Record<string, Json> => {
    const o = copyJson(fixture.make(objectName(r), ns)) as Record<string, Json>;
    const meta = o['metadata'] as Record<string, Json>;
    if (!fixture.namespaced) meta['name'] = `fz-${String(meta['name'] ?? '').slice(0, 40)}`;
    return o;
  };
  const itemPath = () => `${collection(fixture, ns)}/${percentEncode(objectName(r))}`;
  const json = (value: unknown) => Buffer.from(jsonText(value));
  const setBody = (bytes: Buffer, contentType?: string) => {
    draft.body = { chunks: [bytes] };
    if (contentType !== undefined) draft.headers.push(['Content-Type', contentType]);
  };

  switch (category) {
    case 'json-body': {
      draft.method = r.weighted([[6, 'POST'], [3, 'PUT'], [1, 'DELETE']]);
      draft.target = draft.method === 'POST' ? collection(fixture, ns) : itemPath();
      const o = object();
      if (r.chance(0.85)) mutateObject(r, o);
      const text = r.weighted<() => string>([
        [10, () => jsonText(o, r.chance(0.2) ? 2 : undefined)],
        [2, () => { const d = interestingDepth(r, world.depthLimit); return d > 2000 ? nestedText(d, r.pick(['object', 'array'])) : jsonText({ ...o, deep: nested(d, r.pick(['object', 'array', 'mixed'])) }); }],
        [1, () => { const t = jsonText(o); return t.slice(0, r.int(t.length)); }],
        [1, () => jsonText(o).replace(/"([a-z]+)":/, (m, k: string) => `"${k}":1,${m}`)],
        [1, () => r.pick(['', ' ', 'null', '[]', '"x"', '1', '{', '\ufeff{}', '{"a":"\\ud800"}', '{"a":1e999}', `{"n":${'9'.repeat(400)}}`, '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'])],
        [1, () => `{"kind":"${fixture.kind}","apiVersion":"v1","metadata":{"name":"fz-u","labels":{"a":"\\u0000"}}, "x":"${'\\u0001'.repeat(10)}"}`],
      ])();
      setBody(r.chance(0.05) ? Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0xc0])]) : Buffer.from(text),
        r.weighted([[12, 'application/json'], [1, 'application/json; charset=utf-8'], [1, 'application/json;foo=bar;;'], [1, 'text/plain'], [1, '']]));
      break;
    }
    case 'yaml-body': {
      draft.method = r.weighted([[6, 'POST'], [3, 'PUT']]);
      draft.target = draft.method === 'POST' ? collection(fixture, ns) : itemPath();
      const o = object();
      if (r.chance(0.5)) mutateObject(r, o);
      setBody(Buffer.from(yamlBody(r, o, world.depthLimit)), r.weighted([[8, 'application/yaml'], [1, 'application/x-yaml'], [1, 'text/yaml'], [1, 'application/yaml; charset=latin1']]));
      break;
    }
    case 'protobuf-body': {
      draft.method = r.weighted([[6, 'POST'], [3, 'PUT']]);
      draft.target = draft.method === 'POST' ? collection(fixture, ns) : itemPath();
      // Encoded unmutated: the encoder would write odd values as text; the bytes are what gets bent.
      const o = object();
      let valid: Uint8Array | undefined;
      try {
        valid = world.protobuf(o);
      } catch {
        valid = undefined;
      }
      setBody(protobufBody(r, valid), world.names.name('protobufMediaType'));
      break;
    }
    case 'json-patch':
    case 'merge-patch':
    case 'strategic-patch':
    case 'apply': {
      draft.method = 'PATCH';
      const name = r.chance(0.8) ? `fz-${r.int(3)}` : objectName(r);
      draft.target = `${collection(fixture, ns)}/${percentEncode(name)}`;
      const query: string[] = [];
      if (category === 'apply' || r.chance(0.2)) query.push(`fieldManager=${percentEncode(r.chance(0.9) ? 'fuzz' : oddString(r, 200))}`);
      if (r.chance(0.2)) query.push(`force=${r.pick(['true', 'false', 'yes', '1', ''])}`);
      if (r.chance(0.15)) query.push(`fieldValidation=${r.pick(['Strict', 'Warn', 'Ignore', 'strict', 'x'])}`);
      if (r.chance(0.1)) query.push('dryRun=All');
      if (r.chance(0.1)) draft.target += '/status';
      if (query.length > 0) draft.target += `?${query.join('&')}`;
      const base = copyJson(fixture.make(name, ns)) as Record<string, Json>;
      let contentType: string;
      let text: string;
      if (category === 'json-patch') {
        contentType = 'application/json-patch+json';
        text = jsonText(jsonPatch(r, base, world.depthLimit));
      } else if (category === 'merge-patch') {
        contentType = 'application/merge-patch+json';
        const p = r.chance(0.7) ? base : {};
        mutateObject(r, p, r.range(1, 4));
        text = r.weighted<() => string>([
          [8, () => jsonText(p)],
          [1, () => jsonText({ metadata: { labels: null, annotations: { [oddKey(r)]: null } }, deep: nested(interestingDepth(r, world.depthLimit) % 3000, 'object', null) })],
          [1, () => r.pick(['[]', 'null', '"x"', '{', '[{"op":"add"}]'])],
        ])();
      } else if (category === 'strategic-patch') {
        contentType = 'application/strategic-merge-patch+json';
        text = jsonText(strategicPatch(r, base, world.depthLimit));
      } else {
        contentType = 'application/apply-patch+yaml';
        const config = r.chance(0.85) ? base : {};
        if (r.chance(0.6)) mutateObject(r, config);
        if (r.chance(0.1)) config['apiVersion'] = r.pick(['v2', 'apps/v1', '', 'x/y/z']);
        if (r.chance(0.1)) config['kind'] = r.pick(['Pod', '', 'Nope']);
        if (r.chance(0.05)) config['metadata'] = { name, managedFields: [{ manager: 'x', operation: 'Apply' }] };
        if (r.chance(0.003)) {
          // The largest objects apply costs seconds of event loop on a busy machine: the soak run takes the largest.
          const data: Record<string, string> = {};
          for (let i = 0, n = bigApplyKeys(); i < n; i++) data[`k${i}`] = '';
          text = jsonText({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fz-big', namespace: ns }, data });
          draft.target = `${collection(world.fixtures.find((f) => f.resource === 'configmaps')!, ns)}/fz-big?fieldManager=fuzz`;
        } else {
          text = r.weighted<() => string>([
            [6, () => jsonText(config)],
            [4, () => yamlText(config, false)],
            [1, () => yamlBody(r, config, world.depthLimit)],
            [1, () => aliasBomb(r.range(4, 9), r.range(4, 9))],
          ])();
        }
      }
      setBody(Buffer.from(text), r.chance(0.95) ? contentType : r.pick(['application/json', 'application/apply-patch+json', 'application/x-patch']));
      break;
    }
    case 'selector': {
      draft.method = 'GET';
      const params: string[] = [];
      if (r.chance(0.8)) params.push(`labelSelector=${percentEncode(labelSelector(r))}`);
      if (r.chance(0.5)) params.push(`fieldSelector=${percentEncode(fieldSelector(r))}`);
      if (r.chance(0.2)) params.push(`limit=${r.pick(['1', '5', '500', '-1', 'x'])}`);
      if (r.chance(0.15)) {
        params.push('watch=1', `timeoutSeconds=${r.pick(['1', '2'])}`);
        draft.deadlineMs = 2000 + slackMs;
        draft.headersOnly = true;
      }
      draft.target = `${r.chance(0.3) ? collection(fixture, world.seedNamespace) : collection(fixture, ns)}?${params.join('&')}`;
      break;
    }
    case 'query': {
      draft.method = r.weighted([[6, 'GET'], [2, 'POST'], [1, 'DELETE'], [1, 'PATCH']]);
      const list = r.chance(0.5);
      draft.target = list || draft.method === 'POST' ? collection(fixture, r.chance(0.5) ? world.seedNamespace : ns) : itemPath();
      const names = ['resourceVersion', 'resourceVersionMatch', 'limit', 'continue', 'timeoutSeconds', 'watch', 'allowWatchBookmarks',
        'sendInitialEvents', 'pretty', 'dryRun', 'fieldManager', 'fieldValidation', 'propagationPolicy', 'gracePeriodSeconds',
        'orphanDependents', 'timeout', 'includeObject', 'labelSelector', 'fieldSelector', 'force', 'exact', 'export', oddKey(r)];
      const values = () => r.pick(['', '0', '1', '-1', 'true', 'false', 'All', 'NotOlderThan', 'Exact', 'Foreground', 'Orphan',
        'Background', '1s', '1ns', '-1s', '99999999999999999999', '18446744073709551616', String(oddNumber(r)), 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0',
        'Object', 'None', oddString(r, 100), '%zz', '%00', 'a'.repeat(r.pick([10, 10_000, 100_000]))]);
      const params = Array.from({ length: r.range(1, 5) }, () => `${percentEncode(r.pick(names))}=${r.chance(0.9) ? percentEncode(values()) : values()}`);
      if (params.some((p) => p.startsWith('watch=')) || r.chance(0.1)) {
        params.push(`timeoutSeconds=${r.pick(['1', '2'])}`);
        draft.headersOnly = true;
      }
      draft.target += `?${params.join('&')}`;
      if (draft.method === 'POST') setBody(json(object()), 'application/json');
      if (draft.method === 'PATCH') setBody(Buffer.from('{}'), 'application/merge-patch+json');
      break;
    }
    case 'path': {
      draft.method = r.weighted([[6, 'GET'], [1, 'POST'], [1, 'PUT'], [1, 'DELETE'], [1, 'PATCH'], [1, 'HEAD'], [1, 'OPTIONS'], [0.3, 'TRACE']]);
      draft.target = requestTarget(r, world, fixture, ns);
      if (draft.method === 'POST' || draft.method === 'PUT' || draft.method === 'PATCH') {
        setBody(json(object()), draft.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
      }
      if (r.chance(0.1)) draft.target += `${draft.target.includes('?') ? '&' : '?'}watch=1&timeoutSeconds=1`;
      draft.headersOnly = true;
      break;
    }
    case 'header': {
      draft.method = r.weighted([[5, 'GET'], [2, 'POST']]);
      draft.target = r.pick([collection(fixture, ns), `${collection(fixture, world.seedNamespace)}`, '/version', '/api/v1', '/apis', '/openapi/v2', '/livez', itemPath()]);
      if (draft.method === 'POST') {
        draft.target = collection(fixture, ns);
        setBody(json(object()), 'application/json');
      }
      headerMischief(r, draft, world);
      break;
    }
    case 'body-size': {
      draft.method = 'POST';
      draft.target = collection(fixture, ns) + (r.chance(0.5) ? '?timeout=2s' : '');
      const size = r.pick([world.maxBodyBytes - 1, world.maxBodyBytes, world.maxBodyBytes + 1, world.maxBodyBytes * 2, world.maxBodyBytes + 10, 1 << 20]);
      const filler = JSON.stringify({ apiVersion: fixture.group === '' ? fixture.version : `${fixture.group}/${fixture.version}`, kind: fixture.kind, metadata: { name: objectName(r) }, pad: '' });
      const pad = Math.max(0, size - filler.length);
      const body = Buffer.from(filler.replace('"pad":""', `"pad":"${'p'.repeat(pad)}"`));
      const pieces = r.pick([1, 4, 64]);
      const chunks: Buffer[] = [];
      for (let i = 0; i < pieces; i++) chunks.push(body.subarray(Math.floor((i * body.length) / pieces), Math.floor(((i + 1) * body.length) / pieces)));
      draft.body = { chunks };
      draft.headers.push(['Content-Type', 'application/json']);
      draft.chunked = draft.protocol === 'http1' && r.chance(0.4);
      if (r.chance(0.1)) {
        // A Content-Length that lies: the server waits for bytes that never come (until the deadline) or reads garbage after.
        draft.declaredLength = r.chance(0.5) ? body.length + r.range(1, 100) : Math.max(0, body.length - r.range(1, 100));
        draft.chunked = false;
        draft.target = collection(fixture, ns) + '?timeout=1s';
        draft.closeAfter = true;
      }
      if (r.chance(0.2)) draft.headers.push(['Expect', '100-continue']);
      break;
    }
    case 'tls': {
      draft.identity = r.pick(world.identities);
      draft.target = r.pick(['/version', '/api/v1/namespaces', collection(fixture, ns), '/apis/authentication.k8s.io/v1/selfsubjectreviews', '/livez']);
      if (draft.target.includes('selfsubjectreviews')) {
        draft.method = 'POST';
        draft.target = `/apis/${world.names.group('authentication')}/v1/selfsubjectreviews`;
        setBody(json({ apiVersion: `${world.names.group('authentication')}/v1`, kind: 'SelfSubjectReview' }), 'application/json');
      }
      break;
    }
    case 'watch': {
      draft.method = 'GET';
      const params = ['watch=true', `timeoutSeconds=${r.pick(['1', '1', '2'])}`];
      if (r.chance(0.5)) params.push(`resourceVersion=${r.pick(['0', '1', '', '999999999', 'x', String(r.int(5000))])}`);
      if (r.chance(0.3)) params.push(`allowWatchBookmarks=${r.pick(['true', 'false', 'x'])}`);
      if (r.chance(0.2)) params.push(`sendInitialEvents=${r.pick(['true', 'false'])}`, `resourceVersionMatch=${r.pick(['NotOlderThan', 'Exact', ''])}`);
      if (r.chance(0.3)) params.push(`labelSelector=${percentEncode(labelSelector(r))}`);
      draft.target = `${collection(fixture, r.chance(0.5) ? world.seedNamespace : ns)}?${params.join('&')}`;
      draft.deadlineMs = 2000 + slackMs;
      // Most watches count once their headers are in; some are read to their end, which must come on time.
      draft.headersOnly = r.chance(0.8);
      if (r.chance(0.3)) draft.headers = [['Accept', r.pick(['application/yaml', world.names.name('protobufMediaType'), 'application/json;as=Table;v=v1;g=' + world.names.group('meta'), 'application/json;stream=watch'])]];
      break;
    }
    case 'crd': {
      const ext = world.names.group('apiextensions');
      const crd = fuzzCrd(r, world.names);
      draft.method = r.weighted([[6, 'POST'], [3, 'PUT'], [1, 'DELETE'], [1, 'PATCH']]);
      draft.target = `/apis/${ext}/v1/customresourcedefinitions${draft.method === 'POST' ? '' : `/${percentEncode(crd.name)}`}`;
      if (draft.method === 'PATCH') {
        const apply = r.chance(0.5);
        if (apply) draft.target += '?fieldManager=fuzz&force=true';
        setBody(apply && r.chance(0.5) ? Buffer.from(yamlText(crd.body, false)) : json(crd.body), apply ? 'application/apply-patch+yaml' : 'application/merge-patch+json');
      } else if (draft.method !== 'DELETE') {
        if (r.chance(0.7)) setBody(json(crd.body), 'application/json');
        else setBody(Buffer.from(yamlBody(r, crd.body as Record<string, Json>, world.depthLimit)), 'application/yaml');
      }
      break;
    }
    case 'custom-object': {
      const version = r.weighted([[9, 'v1'], [2, 'v1beta1'], [1, 'v2']]);
      const base = `/apis/${fuzzCrdGroup}/${version}/namespaces/${ns}/widgets`;
      const name = r.chance(0.6) ? `fz-${r.int(3)}` : r.chance(0.8) ? `fz-w${r.int(20)}` : objectName(r);
      const widget = fuzzWidget(r, version, name, ns, world.depthLimit) as Record<string, Json>;
      r.weighted<() => void>([
        [4, () => { draft.method = 'POST'; draft.target = base; setBody(json(widget), 'application/json'); }],
        [2, () => { draft.method = 'PUT'; draft.target = `${base}/${percentEncode(name)}${r.chance(0.3) ? '/status' : ''}`; setBody(Buffer.from(yamlBody(r, widget, world.depthLimit)), 'application/yaml'); }],
        [2, () => { draft.method = 'PATCH'; draft.target = `${base}/${percentEncode(name)}?fieldManager=fuzz`; setBody(Buffer.from(yamlText(widget, false)), 'application/apply-patch+yaml'); }],
        [2, () => { draft.method = 'PATCH'; draft.target = `${base}/${percentEncode(name)}${r.chance(0.3) ? '/status' : ''}`; setBody(json({ spec: widget['spec'] ?? null, ...(r.chance(0.2) ? { status: widget['status'] ?? null } : {}) }), r.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json'])); }],
        [1, () => { draft.method = 'PATCH'; draft.target = `${base}/${percentEncode(name)}`; setBody(json(jsonPatch(r, widget, world.depthLimit)), 'application/json-patch+json'); }],
        [2, () => {
          draft.method = r.pick(['GET', 'PUT', 'PATCH']);
          draft.target = `${base}/${percentEncode(name)}/scale`;
          const replicas = r.pick<Json>([0, 3, 600, -1, 'x', null, 2 ** 53]);
          if (draft.method === 'PUT') setBody(json({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: ns }, spec: { replicas } }), 'application/json');
          if (draft.method === 'PATCH') setBody(json({ spec: { replicas } }), 'application/merge-patch+json');
        }],
        [1, () => { draft.method = 'GET'; draft.target = `${base}?labelSelector=${percentEncode(labelSelector(r))}`; draft.headers = [['Accept', r.pick(['application/json', `application/json;as=Table;v=v1;g=${world.names.group('meta')}`, 'application/yaml'])]]; }],
        [1, () => { draft.method = 'DELETE'; draft.target = `${base}/${percentEncode(name)}`; }],
      ])();
      break;
    }
    case 'webhook-config': {
      const config = fuzzWebhookConfiguration(r, world.names);
      const root = `/apis/${world.names.group('admissionregistration')}/v1/${config.resource}`;
      draft.method = r.weighted([[6, 'POST'], [3, 'PUT'], [1, 'DELETE']]);
      draft.target = draft.method === 'POST' ? root : `${root}/${percentEncode(config.name)}`;
      if (draft.method !== 'DELETE' && r.chance(0.8)) setBody(json(config.body), 'application/json');
      else if (draft.method !== 'DELETE') setBody(Buffer.from(yamlText(config.body, false)), 'application/yaml');
      break;
    }
    case 'all-namespaces': {
      // The all-namespaces path of a namespaced resource serves list and watch only (kube routes nothing else there):
      // a deletecollection, create or named request across namespaces must be refused, never served, whoever asks.
      const f = r.pick(world.fixtures.filter((x) => x.namespaced));
      const root = f.group === '' ? `/api/${f.version}` : `/apis/${f.group}/${f.version}`;
      const custom = f.group === fuzzCrdGroup;
      r.weighted<() => void>([
        [4, () => {
          draft.method = r.weighted([[4, 'DELETE'], [3, 'POST'], [1, 'PUT'], [1, 'PATCH']]);
          draft.target = `${root}/${f.resource}${r.chance(0.3) ? `?${r.pick(['labelSelector=a%3Db', 'fieldSelector=metadata.name%3Dfz-1', 'dryRun=All', 'propagationPolicy=Background'])}` : ''}`;
          draft.expect = [custom ? 404 : 405];
        }],
        [2, () => {
          draft.method = r.pick(['GET', 'PUT', 'PATCH', 'DELETE']);
          draft.target = `${root}/${f.resource}/fz-${r.int(12)}${r.chance(0.3) ? '/status' : ''}`;
          draft.expect = [404];
        }],
        [1, () => {
          // go-restful's watch routes are GET only; kube's CRD handler serves a watch path whatever the method.
          draft.method = r.pick(['POST', 'DELETE', 'PUT']);
          draft.target = `${root}/watch/${f.resource}?timeoutSeconds=1`;
          draft.expect = [custom ? 200 : 405];
          draft.headersOnly = custom;
        }],
        [1, () => {
          draft.method = 'GET';
          draft.target = `${root}/${f.resource}?limit=${r.pick(['1', '50'])}${r.chance(0.3) ? '&watch=1&timeoutSeconds=1' : ''}`;
          draft.headersOnly = draft.target.includes('watch=1');
          draft.expect = [200];
        }],
      ])();
      if (draft.method === 'POST' || draft.method === 'PUT') setBody(json(f.make(objectName(r), ns)), 'application/json');
      if (draft.method === 'PATCH') setBody(Buffer.from('{"metadata":{"labels":{"fz":"x"}}}'), 'application/merge-patch+json');
      break;
    }
    case 'slow': {
      draft.method = 'POST';
      draft.target = `${collection(fixture, ns)}?timeout=1s`;
      const bytes = json(object());
      draft.body = { chunks: [bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length >> 1)], stall: true };
      draft.headers.push(['Content-Type', 'application/json']);
      draft.deadlineMs = 1000 + slackMs;
      draft.closeAfter = true;
      break;
    }
  }

  const method = draft.method;
  credentials(r, draft, as, world);
  guardSeed(draft, as, world);
  // A write the guard turned into a read is not the request the expectation was for.
  if (draft.method !== method) delete draft.expect;
  return {
    index, category, as, ...(draft.expect !== undefined ? { expect: draft.expect } : {}),
    request: {
      protocol: draft.protocol, method: draft.method, target: draft.target, headers: draft.headers, deadlineMs: draft.deadlineMs,
      ...(draft.body ? { body: draft.body } : {}), ...(draft.raw ? { raw: draft.raw } : {}),
      ...(draft.chunked ? { chunked: true } : {}), ...(draft.declaredLength !== undefined ? { declaredLength: draft.declaredLength } : {}),
      ...(draft.identity ? { identity: draft.identity } : {}), ...(draft.closeAfter ? { closeAfter: true } : {}),
      ...(draft.headersOnly ? { headersOnly: true } : {}),
    },
  };
}

function credentials(r: Random, draft: Draft, as: Credential, world: FuzzWorld): void {
  if (draft.identity !== undefined) return;
  if (as === 'admin') draft.headers.push(['Authorization', `Bearer ${world.adminToken}`]);
  else if (as === 'user') draft.headers.push(['Authorization', `Bearer ${world.userToken}`]);
  else if (as === 'garbage') {
    const value = r.pick(['Bearer', 'Bearer ', `Bearer ${oddString(r, 100)}`, 'Basic YWRtaW46YWRtaW4=', `Bearer ${'x'.repeat(10_000)}`, 'Negotiate x', `bearer ${world.adminToken}`, `Bearer ${world.adminToken} ${world.adminToken}`]);
    draft.headers.push(['Authorization', value]);
    // A value a header cannot carry (control characters; past Latin-1, which the HTTP/1.1 framing truncates to a
    // byte, a NUL among them) is refused by the HTTP layer with 400 before any route, as Go's server refuses it.
    if (draft.expect !== undefined && /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/.test(value)) draft.expect = [...draft.expect, 400];
  }
}

/** Keeps writes with the admin's rights away from the seeded objects and the run's namespaces. */
function guardSeed(draft: Draft, as: Credential, world: FuzzWorld): void {
  const write = draft.method !== 'GET' && draft.method !== 'HEAD' && draft.method !== 'OPTIONS';
  // Malformed credentials that still carry the admin token (`bearer <token>`, `Bearer <token> <token>`) are the
  // admin's: kube-apiserver reads the scheme case-insensitively and the token as the second word.
  const carriesAdmin = draft.headers.some(([k, v]) => k.toLowerCase() === 'authorization' && v.includes(world.adminToken));
  const privileged = as === 'admin' || draft.identity !== undefined || carriesAdmin;
  if (!write || !privileged) return;
  let target = draft.target;
  target = target.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  const touchesRun = [world.seedNamespace, world.namespace, world.userNamespace].some((n) => target.includes(n) && /\/namespaces\/?[^/]*\/?(\?|$)/.test(target));
  if (target.includes(world.seedNamespace) || /\/namespaces\/?(\?|$)/.test(target) || (draft.method === 'DELETE' && touchesRun)
    || /\/(clusterrolebindings|rolebindings|clusterroles|roles)/.test(target)) {
    draft.method = 'GET';
    delete draft.body;
    delete draft.chunked;
    delete draft.declaredLength;
  }
}

/** A label selector: grammatical, near-grammatical, or noise; sometimes a thousand terms. */
function labelSelector(r: Random): string {
  const key = () => r.weighted<() => string>([[6, () => r.pick(['a', 'app', 'tier', 'svc.io/x', 'k', 'env'])], [2, () => oddString(r, 70)], [1, () => `${r.text(254)}/${r.text(64)}`]])();
  const value = () => r.weighted<() => string>([[6, () => r.pick(['x', 'web', '', '1', '-1', 'a.b'])], [2, () => oddString(r, 70)]])();
  const term = () => r.weighted<() => string>([
    [3, () => `${key()}${r.pick(['=', '==', '!='])}${value()}`],
    [2, () => `${key()} ${r.pick(['in', 'notin'])} (${Array.from({ length: r.int(4) }, value).join(',')})`],
    [1, () => `${r.pick(['', '!'])}${key()}`],
    [1, () => `${key()}${r.pick(['>', '<'])}${r.pick(['1', '-5', 'x', '99999999999999999999'])}`],
    [1, () => r.pick(['a in ()', 'a in (', 'a in )', 'a notin ()', '!', '!!a', 'a=b=c', '=a', 'a in (b,,c)', 'a,', ',a', '(', 'a b', 'in in (in)'])],
  ])();
  if (r.chance(0.05)) return Array.from({ length: 1000 }, (_, i) => `k${i}=v`).join(',');
  return Array.from({ length: r.range(1, 4) }, term).join(r.pick([',', ', ', ' ,', ',,']));
}

/** A field selector: grammatical, near-grammatical, or noise. */
function fieldSelector(r: Random): string {
  const field = () => r.pick(['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase', 'type', 'involvedObject.name', 'x', '', oddString(r, 40)]);
  const term = () => `${field()}${r.pick(['=', '==', '!=', '', '<', '~'])}${r.pick(['fz-1', '', 'x\\,y', '\\', oddString(r, 40)])}`;
  if (r.chance(0.05)) return Array.from({ length: 1000 }, (_, i) => `metadata.name!=n${i}`).join(',');
  return Array.from({ length: r.range(1, 3) }, term).join(',');
}

/** A request target: real API paths bent, non-API paths, and strings that are barely targets. */
function requestTarget(r: Random, world: FuzzWorld, fixture: ResourceFixture, ns: string): string {
  const sub = () => r.pick(['status', 'scale', 'log', 'exec', 'attach', 'proxy', 'portforward', 'eviction', 'binding', 'token', 'approval', 'finalize', 'ephemeralcontainers', 'x']);
  return r.weighted<() => string>([
    [6, () => `${collection(fixture, ns)}/fz-${r.int(3)}/${sub()}${r.chance(0.3) ? '/' + oddString(r, 20) : ''}`],
    [3, () => collection(fixture, ns).replace(/\/[^/]+$/, `/${r.pick(['widgets', 'CONFIGMAPS', '', '..', '.', '%2e%2e', oddString(r, 20)])}`)],
    [2, () => `/apis/${r.pick(['', 'apps', world.names.group('coordination'), 'nope.example', 'apps/v1', 'apps/v9'])}/${r.pick(['', 'v1', 'v1beta1', 'x'])}`],
    [2, () => `/api/${r.pick(['', 'v1', 'v2', 'v1/namespaces', 'v1/namespaces/' + ns, 'v1/watch/namespaces/' + ns + '/configmaps', 'v1/proxy/x'])}`],
    [2, () => r.pick(['/', '//', '///', '//[', '/nope', '/healthz/nope', '/livez?verbose', '/readyz/x/y', '/openapi/v3/api/v9', '/openapi/v2?x', '/debug/pprof/', '/metrics', '/version/', '/.well-known/openid-configuration', '/openid/v1/jwks', '*', 'http://x/version', 'https://127.0.0.1/api', '/a/../../version', '/%00', '/%zz', '/api%2fv1', '/api/v1/namespaces/%2e%2e/configmaps',
      // ComponentStatus, answered by probes at each request, and the health endpoints' query and per-check forms.
      '/api/v1/componentstatuses', '/api/v1/componentstatuses/etcd-0', `/api/v1/componentstatuses/${percentEncode(oddString(r, 20))}`,
      `/api/v1/componentstatuses?labelSelector=${percentEncode(oddString(r, 20))}&fieldSelector=${percentEncode(oddString(r, 20))}`,
      `/readyz?verbose&exclude=${percentEncode(oddString(r, 20))}`, `/livez/${percentEncode(oddString(r, 20), '/')}`, '/readyz/poststarthook/bootstrap-controller'])],
    [1, () => '/' + 'a/'.repeat(r.pick([100, 5000, 30_000]))],
    [1, () => `/api/v1/namespaces/${ns}/configmaps/${'n'.repeat(r.pick([253, 254, 100_000]))}`],
    [1, () => `/api/v1/namespaces/${percentEncode(oddString(r, 40))}/configmaps/${percentEncode(oddString(r, 40), '/')}`],
    [1, () => `/api/v1/namespaces/${ns}/configmaps?${'q='.repeat(r.pick([10, 2000])) + 'x'}`],
  ])();
}

/** Headers a client should not send, or should send differently. */
function headerMischief(r: Random, draft: Draft, world: FuzzWorld): void {
  for (let n = r.range(1, 3); n > 0; n--) {
    r.weighted<() => void>([
      [4, () => { draft.headers = [['Accept', r.pick(['', '*/*', 'application/yaml', 'application/json;as=Table;g=' + world.names.group('meta') + ';v=v1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=' + world.names.group('meta'), 'application/json;as=PartialObjectMetadataList;v=v1;g=' + world.names.group('meta'), world.names.name('protobufMediaType'), 'text/html', 'application/json;q=0', 'application/*;q=0.1, */*;q=0', ',,,', 'application/json;as=Table;v=v1;g=' + world.names.group('meta') + ';includeObject=x', oddString(r, 200)])]]; }],
      [2, () => draft.headers.push(['Impersonate-User', r.pick(['', 'alice', 'system:admin', oddString(r, 60)])])],
      [1, () => draft.headers.push(['Impersonate-Group', r.pick(['', 'system:masters', oddString(r, 60)])])],
      [1, () => draft.headers.push([`Impersonate-Extra-${r.pick(['scopes', '%20', 'a%zz', 'x'])}`, oddString(r, 60)])],
      [1, () => draft.headers.push(['Impersonate-Uid', oddString(r, 40)])],
      [1, () => draft.headers.push(['X-Big', 'b'.repeat(r.pick([10_000, 60_000, 200_000, 1_100_000]))])],
      [1, () => { for (let i = r.pick([100, 1990, 2001, 3000]); i > 0; i--) draft.headers.push([`X-H${i}`, 'v']); }],
      [1, () => draft.headers.push(['Expect', r.pick(['100-continue', 'foo', '', '200-ok'])])],
      [1, () => draft.headers.push([r.pick(['Content-Type', 'Content-Encoding', 'Accept-Encoding', 'If-None-Match', 'User-Agent', 'Audit-ID', 'X-Remote-User', 'X-Remote-Group', 'Origin', 'Range', 'Upgrade', 'Connection', 'TE', 'Transfer-Encoding', 'Host', 'Content-Length']), oddString(r, 100)])],
      [1, () => {
        // Raw HTTP/1.1 bytes: what a parser must refuse.
        draft.protocol = 'http1';
        draft.closeAfter = true;
        draft.raw = Buffer.from(r.pick([
          'GET / HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n',
          'GET /version HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
          'GET /version HTTP/9.9\r\nHost: x\r\n\r\n',
          'GET /api/v1/configmaps?labelSelector=a in () HTTP/1.1\r\nHost: x\r\n\r\n',
          'POST /api/v1/namespaces/fuzz/configmaps HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
          'POST /api/v1/namespaces/fuzz/configmaps HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
          'BREW /version HTTP/1.1\r\nHost: x\r\n\r\n',
          '\r\n\r\nGET /version HTTP/1.1\r\n\r\n',
          'GET /version HTTP/1.1\r\n' + 'X-Long: ' + 'l'.repeat(1_100_000) + '\r\n\r\n',
          'GET /' + 'p'.repeat(1_100_000) + ' HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET /version HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
          'GET /version HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
          'GET /version HTTP/1.1\nHost: x\n\n',
          'GET //[ HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET // HTTP/1.1\r\nHost: x\r\n\r\n',
          'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
        ]), 'latin1');
      }],
    ])();
  }
}

/** A JSON patch: plausible operations on the object's structure, broken ones, and ones that grow without bound. */
function jsonPatch(r: Random, base: Record<string, Json>, depthLimit: number): Json {
  const paths = ['', '/', '/metadata', '/metadata/labels', '/metadata/labels/a', '/metadata/labels/a~1b', '/metadata/annotations/x',
    '/metadata/name', '/metadata/finalizers/-', '/metadata/finalizers/0', '/data', '/data/key', '/spec', '/spec/containers/0/image',
    '/spec/containers/-', '/spec/containers/999999999999', '/spec/containers/-1', '/spec/x/y/z', '/~2', '/a~', '/status', '/kind',
    '/apiVersion', '/metadata/managedFields', '/metadata/ownerReferences/0', '/spec/containers/0/env/-', '/data/__proto__',
    '/metadata/labels/__proto__/x', '/constructor/prototype/x'];
  const op = () => {
    const o: Record<string, Json> = { op: r.weighted([[4, 'add'], [2, 'remove'], [3, 'replace'], [1, 'move'], [2, 'copy'], [2, 'test'], [0.5, 'nope'], [0.5, '']]) };
    if (r.chance(0.97)) o['path'] = r.chance(0.9) ? r.pick(paths) : oddString(r, 30);
    if (o['op'] === 'move' || o['op'] === 'copy') o['from'] = r.pick(paths);
    if (o['op'] === 'add' || o['op'] === 'replace' || o['op'] === 'test') o['value'] = r.chance(0.1) ? nested(interestingDepth(r, depthLimit) % 3000, 'mixed') : randomJson(r, 2, 8);
    return o;
  };
  return r.weighted<() => Json>([
    [8, () => Array.from({ length: r.range(1, 6) }, op)],
    [1, () => Array.from({ length: r.pick([40, 60]) }, (_, i) => ({ op: 'copy', from: '', path: `/c${i}` }))],
    [1, () => Array.from({ length: r.pick([10_001, 12_000]) }, () => ({ op: 'test', path: '/kind', value: base['kind'] ?? null }))],
    [1, () => r.pick<Json>([{}, null, 'x', [null], [[]], [{ op: 'add', path: '/metadata/labels', value: null }]])],
  ])();
}

function isMap(v: Json | undefined): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A strategic merge patch: the object's structure with directives in and around it. */
function strategicPatch(r: Random, base: Record<string, Json>, depthLimit: number): Json {
  const p: Record<string, Json> = r.chance(0.6) ? base : {};
  const directive = (): [string, Json] => r.pick<[string, Json]>([
    ['$patch', r.pick(['delete', 'replace', 'merge', 'x', 5] as Json[])],
    ['$retainKeys', r.pick([['a'], 'x', [5], null, []] as Json[])],
    ['$setElementOrder/containers', r.pick([[{ name: 'c' }], [{ name: 5 }], ['x'], null, [[]]] as Json[])],
    ['$setElementOrder/finalizers', r.pick([['a', 'b'], [{ a: 1 }]] as Json[])],
    ['$deleteFromPrimitiveList/finalizers', r.pick([['a'], 'x', [{ a: 1 }], null] as Json[])],
    ['$deleteFromPrimitiveList/containers', [{ name: 'c' }]],
  ]);
  for (let n = r.range(1, 3); n > 0; n--) {
    const [k, v] = directive();
    const where = r.pick(['root', 'metadata', 'spec', 'containers'] as const);
    if (where === 'root') p[k] = v;
    else if (where === 'metadata') p['metadata'] = { ...(isMap(p['metadata']) ? p['metadata'] : {}), [k]: v };
    else if (where === 'spec') p['spec'] = { ...(isMap(p['spec']) ? p['spec'] : {}), [k]: v };
    else p['spec'] = { containers: [{ name: r.pick(['c', 'd', 5, null] as Json[]), [k]: v }, r.pick([[1], { $patch: 'delete' }, 'x', null] as Json[])] };
  }
  if (r.chance(0.3)) mutateObject(r, p);
  if (r.chance(0.05)) p['deep'] = nested(interestingDepth(r, depthLimit) % 3000, r.pick(['object', 'array', 'mixed'] as const));
  if (r.chance(0.05)) p['metadata'] = { labels: null, finalizers: [[1, 2], [3]] };
  return p;
}
