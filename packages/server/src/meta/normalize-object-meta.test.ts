import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectMeta } from '@svc-apiserver/api';
import { normalizeObjectMeta } from './normalize-object-meta.js';

test('null metadata fields are absent; null label and annotation values are empty strings, as Go decodes them', () => {
  const meta = {
    name: 'x', labels: null, annotations: { a: null, b: 'c' }, finalizers: [null, 'svc.io/f'], ownerReferences: null,
    generateName: null, deletionGracePeriodSeconds: null,
  } as unknown as ObjectMeta;
  normalizeObjectMeta(meta);
  assert.deepEqual(meta, { name: 'x', annotations: { a: '', b: 'c' }, finalizers: ['', 'svc.io/f'] });
  const labels = { name: 'y', labels: { k: null } } as unknown as ObjectMeta;
  normalizeObjectMeta(labels);
  assert.deepEqual(labels, { name: 'y', labels: { k: '' } });
});
