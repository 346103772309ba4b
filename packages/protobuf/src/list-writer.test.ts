import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { protobufCodec } from './codec.js';

const codec = protobufCodec(namesFor('svc'));

function pod(i: number): Record<string, unknown> {
  return {
    metadata: { name: `p-${i}`, namespace: 'n', labels: { app: 'web', i: String(i) }, resourceVersion: String(10 + i), creationTimestamp: '2024-01-02T03:04:05Z' },
    spec: { containers: [{ name: 'c', image: 'i'.repeat(i * 40), ports: [{ containerPort: 8080 }] }] },
  };
}

function streamed(apiVersion: string, listKind: string, kind: string, metadata: Record<string, unknown>, items: readonly Record<string, unknown>[]): Buffer {
  const bytes = items.map((o) => codec.encodeItem(apiVersion, kind, o)!);
  const list = codec.listWriter(apiVersion, listKind, metadata, bytes)!;
  return Buffer.concat([list.head, ...bytes.flatMap((b, i) => [list.itemHeader(i), b]), list.tail]);
}

test('a list written from items encoded beforehand is byte for byte the whole list encoded at once', () => {
  for (const count of [0, 1, 3, 40]) {
    const items = Array.from({ length: count }, (_, i) => pod(i));
    const metadata = { resourceVersion: '99', continue: 'token', remainingItemCount: 5 };
    const whole = codec.encode({ apiVersion: 'v1', kind: 'PodList', metadata, items })!;
    assert.deepEqual(streamed('v1', 'PodList', 'Pod', metadata, items), Buffer.from(whole), `${count} items`);
    const back = codec.decode(whole);
    assert.ok(back.ok);
    assert.equal((back.value as unknown as { items?: unknown[] }).items?.length ?? 0, count);
  }
  // Items of another group, and a list kind without a message.
  const lease = { metadata: { name: 'l' }, spec: { holderIdentity: 'me' } };
  const apps = { apiVersion: 'coordination.svc.io/v1', kind: 'LeaseList', metadata: { resourceVersion: '1' }, items: [lease] };
  assert.deepEqual(streamed('coordination.svc.io/v1', 'LeaseList', 'Lease', apps.metadata, [lease]), Buffer.from(codec.encode(apps)!));
  assert.equal(codec.listWriter('example.com/v1', 'WidgetList', {}, []), undefined);
  assert.equal(codec.encodeItem('example.com/v1', 'Widget', {}), undefined);
});
