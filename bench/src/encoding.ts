/**
 * Encode + decode cost of JSON against protobuf for the server's objects, in-process: a ~2 KB pod and a list of
 * 3,000 such pods. JSON is `JSON.stringify`/`JSON.parse` (what the server does for JSON); protobuf is the server's
 * codec (plain object → message → `k8s\0` envelope and back). Each figure is printed beside the JSON baseline
 * measured in the same run, with the ratio protobuf / JSON (above 1: protobuf costs more).
 *
 * Run alone: `node bench/dist/encoding.js [--ms=<per measurement, default 1500>]`; `npm run bench` runs it too.
 */
import { parseArgs } from 'node:util';
import { namesFor } from '@svc-apiserver/api';
import { protobufCodec } from 'svc-apiserver/protobuf/codec';
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

/** Mean milliseconds per call of `fn`, run for about `budgetMs`. */
function timePerCall(fn: () => void, budgetMs: number): number {
  for (let i = 0; i < 3; i++) fn();
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    fn();
    calls++;
    elapsed = performance.now() - start;
  }
  return elapsed / calls;
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
  const json: Cost = {
    encodeMs: timePerCall(() => { sink += JSON.stringify(object).length; }, budgetMs),
    decodeMs: timePerCall(() => { sink += Object.keys(JSON.parse(text) as object).length; }, budgetMs),
    bytes: Buffer.byteLength(text),
  };
  const protobuf: Cost = {
    encodeMs: timePerCall(() => { sink += codec.encode(object)!.length; }, budgetMs),
    decodeMs: timePerCall(() => { sink += codec.decode(bytes).ok ? 1 : 0; }, budgetMs),
    bytes: bytes.length,
  };
  if (sink < 0) throw new Error('unreachable');
  return { json, protobuf };
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
      `  enc+dec ms  protobuf ${fmt(pbTotal, digits).padStart(9)}   JSON ${fmt(jsonTotal, digits).padStart(9)}   ratio ${fmt(pbTotal / jsonTotal, 2)}`,
    );
  }
  return lines;
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { ms: { type: 'string' } } });
  process.stdout.write(`encoding bench (in-process, protobuf / JSON)\n${encodingBench(Number(values.ms ?? '1500')).join('\n')}\n`);
}
