/**
 * Encode + decode cost of JSON against protobuf for the server's objects, in-process: a ~2 KB pod and a list of
 * 3,000 such pods. JSON is `JSON.stringify`/`JSON.parse` (what the server does for JSON); protobuf is the server's
 * codec (plain object → message → `k8s\0` envelope and back, the generated encoders and decoders). Each figure is
 * printed beside the JSON baseline measured in the same run, the two taking turns, with the ratio protobuf / JSON
 * (above 1: protobuf costs more). Then a list streamed from items serialized beforehand, as the server writes lists.
 *
 * Run alone: `node bench/dist/encoding.js [--ms=<per measurement, default 1500>]`; `npm run bench` runs it too.
 */
import { parseArgs } from 'node:util';
import { namesFor } from '@svc-apiserver/api';
import { protobufCodec } from '@svc-apiserver/protobuf';
import { fmt, isMain } from './support.js';

/** A pod of about 2 KB of JSON, shaped like a real one (managed fields, probes, resources, status). */
export function samplePod(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: `web-7d4b9c8f6d-${i.toString(36).padStart(5, 'x')}`, namespace: 'bench', uid: `0b6f7c1e-2d3a-4c5b-9e8f-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i), creationTimestamp: '2024-01-02T03:04:05Z', labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d', tier: 'frontend' },
      annotations: { 'example.com/revision': '42' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: '5f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b', controller: true, blockOwnerDeletion: true }],
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: '2024-01-02T03:04:05Z', fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } } }],
    },
    spec: {
      containers: [{
        name: 'web', image: 'registry.example.com/web:1.2.3', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'MODE', value: 'production' }, { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
        volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }],
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent',
      }],
      volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: 'node-3',
      schedulerName: 'default-scheduler', tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: {
      phase: 'Running', podIP: '10.244.3.17', podIPs: [{ ip: '10.244.3.17' }], hostIP: '192.168.1.13', startTime: '2024-01-02T03:04:06Z', qosClass: 'Burstable',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-02T03:04:09Z' }, { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-01-02T03:04:05Z' }],
      containerStatuses: [{ name: 'web', ready: true, started: true, restartCount: 0, image: 'registry.example.com/web:1.2.3', imageID: 'registry.example.com/web@sha256:0123456789abcdef', containerID: 'containerd://abcdef0123456789', state: { running: { startedAt: '2024-01-02T03:04:08Z' } } }],
    },
  };
}

/**
 * Milliseconds per call of each function: the functions take turns for `rounds` rounds of about `budgetMs / rounds`
 * each, and each keeps its best round, so that a busy moment of the shared machine does not land on one side only.
 */
function timePerCall(fns: Record<string, () => void>, budgetMs: number, rounds = 5): Record<string, number> {
  const best: Record<string, number> = {};
  for (const fn of Object.values(fns)) for (let i = 0; i < 20; i++) fn();
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      let calls = 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < budgetMs / rounds) {
        fn();
        calls++;
        elapsed = performance.now() - start;
      }
      best[name] = Math.min(best[name] ?? Infinity, elapsed / calls);
    }
  }
  return best;
}

interface Cost {
  readonly encodeMs: number;
  readonly decodeMs: number;
  readonly bytes: number;
}

function measure(object: Record<string, unknown>, budgetMs: number): { json: Cost; protobuf: Cost } {
  const codec = protobufCodec(namesFor('svc'));
  const text = JSON.stringify(object);
  const bytes = codec.encode(object);
  if (bytes === undefined) throw new Error(`no protobuf form for ${String(object['kind'])}`);
  const back = codec.decode(bytes);
  if (!back.ok) throw new Error(back.error.message);
  let sink = 0;
  const t = timePerCall({
    jsonEncode: () => { sink += JSON.stringify(object).length; },
    jsonDecode: () => { sink += Object.keys(JSON.parse(text) as object).length; },
    protobufEncode: () => { sink += codec.encode(object)!.length; },
    protobufDecode: () => { sink += codec.decode(bytes).ok ? 1 : 0; },
  }, budgetMs);
  if (sink < 0) throw new Error('unreachable');
  return {
    json: { encodeMs: t['jsonEncode']!, decodeMs: t['jsonDecode']!, bytes: Buffer.byteLength(text) },
    protobuf: { encodeMs: t['protobufEncode']!, decodeMs: t['protobufDecode']!, bytes: bytes.length },
  };
}

/**
 * A list written from items serialized beforehand, as the server streams lists from its watch cache: JSON joins
 * the items' bytes between the list's head and tail, protobuf writes the envelope's head, each item's field header
 * and bytes, and the tail. Per list, in ms.
 */
function streamedList(items: readonly Record<string, unknown>[], budgetMs: number): { json: number; protobuf: number } {
  const codec = protobufCodec(namesFor('svc'));
  const jsonItems = items.map((o) => Buffer.from(JSON.stringify(o)));
  const protobufItems = items.map((o) => codec.encodeItem('v1', 'Pod', o)!);
  const metadata = { resourceVersion: '9999' };
  const comma = Buffer.from(',');
  let sink = 0;
  const t = timePerCall({
    json: () => {
      const parts: Buffer[] = [Buffer.from(`{"kind":"PodList","apiVersion":"v1","metadata":${JSON.stringify(metadata)},"items":[`)];
      jsonItems.forEach((b, i) => {
        if (i > 0) parts.push(comma);
        parts.push(b);
      });
      parts.push(Buffer.from(']}\n'));
      sink += Buffer.concat(parts).length;
    },
    protobuf: () => {
      const list = codec.listWriter('v1', 'PodList', metadata, protobufItems)!;
      const parts: Uint8Array[] = [list.head];
      protobufItems.forEach((b, i) => parts.push(list.itemHeader(i), b));
      parts.push(list.tail);
      sink += Buffer.concat(parts).length;
    },
  }, budgetMs);
  if (sink < 0) throw new Error('unreachable');
  return { json: t['json']!, protobuf: t['protobuf']! };
}

/** Runs the encoding bench; returns the printed lines. */
export function encodingBench(budgetMs = 1500): string[] {
  const pod = samplePod(0);
  const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '9999' }, items: Array.from({ length: 3000 }, (_, i) => samplePod(i)) };
  const lines: string[] = [];
  for (const [label, object, digits] of [['pod (2 KB)', pod, 4], ['list of 3,000 pods', list, 1]] as const) {
    const { json, protobuf } = measure(object, budgetMs);
    const pbTotal = protobuf.encodeMs + protobuf.decodeMs;
    const jsonTotal = json.encodeMs + json.decodeMs;
    lines.push(
      `${label}: ${json.bytes} B JSON, ${protobuf.bytes} B protobuf (size ratio ${fmt(protobuf.bytes / json.bytes, 2)})`,
      `  encode ms   protobuf ${fmt(protobuf.encodeMs, digits).padStart(9)}   JSON ${fmt(json.encodeMs, digits).padStart(9)}   ratio ${fmt(protobuf.encodeMs / json.encodeMs, 2)}`,
      `  decode ms   protobuf ${fmt(protobuf.decodeMs, digits).padStart(9)}   JSON ${fmt(json.decodeMs, digits).padStart(9)}   ratio ${fmt(protobuf.decodeMs / json.decodeMs, 2)}`,
      `  enc+dec ms  protobuf ${fmt(pbTotal, digits).padStart(9)}   JSON ${fmt(jsonTotal, digits).padStart(9)}   ratio ${fmt(pbTotal / jsonTotal, 2)}   goal ≤ ${label.startsWith('pod') ? '1.0' : '1.2'}`,
    );
  }
  const streamed = streamedList(list.items, budgetMs);
  lines.push(`  streamed from pre-serialized items (the server's list path), ms   protobuf ${fmt(streamed.protobuf, 2)}   JSON ${fmt(streamed.json, 2)}   ratio ${fmt(streamed.protobuf / streamed.json, 2)}`);
  return lines;
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { ms: { type: 'string' } } });
  process.stdout.write(`encoding bench (in-process, protobuf / JSON)\n${encodingBench(Number(values.ms ?? '1500')).join('\n')}\n`);
}
