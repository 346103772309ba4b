import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { checkName } from '../../meta/name-rules.js';
import { createCa, issueLeaf } from '../../pki/certificates.js';
import { decodePemBlocks, encodePem } from '../../pki/pem.js';
import { seededRandom } from '../../testing/seeded-random.js';
import { clusterTrustBundleNameRule, clusterTrustBundleStrategy, trustBundleErrors } from './clustertrustbundles.js';

const messages = (errs: readonly { field: string; detail?: string }[]): string[] => errs.map((e) => `${e.field}: ${e.detail ?? ''}`);

test('names: a signer\'s bundles carry its name as a prefix; others may not have a colon', () => {
  const signed = clusterTrustBundleNameRule('example.com/foo');
  assert.deepEqual(checkName(signed, 'example.com:foo:v1', false), []);
  assert.deepEqual(checkName(signed, 'example.com:foo:gen-', true), [], 'a generateName prefix');
  assert.deepEqual(checkName(signed, 'other:v1', false), ['ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:']);
  assert.equal(checkName(signed, 'example.com:foo:UP', false).length, 1, 'the rest a DNS subdomain');
  const unsigned = clusterTrustBundleNameRule('');
  assert.deepEqual(checkName(unsigned, 'plain', false), []);
  assert.deepEqual(checkName(unsigned, 'a:b', false), ['ClusterTrustBundle without signer name must not have ":" in its name']);
});

test('trust bundles: CA certificates only, no headers, no duplicates, at least one, at most 1 MiB', async () => {
  const ca = await createCa('bundle-ca');
  const other = await createCa('other-ca');
  const leaf = await issueLeaf(ca, { commonName: 'leaf', usage: 'client' });
  const path = 'spec.trustBundle';
  assert.deepEqual(trustBundleErrors(path, `${ca.certPem}\nsome text between\n${other.certPem}`), []);
  assert.deepEqual(messages(trustBundleErrors(path, '')), [`${path}: at least one trust anchor must be provided`]);
  assert.deepEqual(messages(trustBundleErrors(path, leaf.certPem)), [`${path}: entry 0 does not have the CA bit set`]);
  assert.deepEqual(messages(trustBundleErrors(path, `${ca.certPem}${other.certPem}${ca.certPem}`)), [`${path}: duplicate trust anchor (indices [0 2])`]);
  assert.deepEqual(messages(trustBundleErrors(path, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')), [`${path}: entry 0 has bad block type: PRIVATE KEY`]);
  assert.deepEqual(messages(trustBundleErrors(path, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')), [`${path}: entry 0 does not parse as X.509`]);
  const withHeader = ca.certPem.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
  assert.deepEqual(messages(trustBundleErrors(path, withHeader)), [`${path}: entry 0 has PEM block headers`]);
  assert.deepEqual(messages(trustBundleErrors(path, 'x'.repeat(1024 * 1024 + 1))), [`${path}: must have at most 1048576 bytes`]);
  assert.equal(trustBundleErrors(path, `${ca.certPem}`)[0]?.badValue, undefined);
  assert.equal(trustBundleErrors(path, leaf.certPem)[0]?.badValue, '<value omitted>');
});

test('strategy: signer name checked and immutable, the bundle parsed on update only when it changed, selectable by signer', async () => {
  const ca = await createCa('bundle-ca');
  const strategy = clusterTrustBundleStrategy();
  const bundle = (signerName: string | undefined, trustBundle: string): KubeObject => ({
    apiVersion: 'certificates.svc.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name: 'example.com:foo:1' },
    spec: { trustBundle, ...(signerName === undefined ? {} : { signerName }) },
  });
  assert.equal(strategy.allowUnconditionalUpdate, false);
  assert.deepEqual(strategy.validate(bundle('example.com/foo', ca.certPem)), []);
  assert.deepEqual(messages(strategy.validate(bundle('nodomain', ca.certPem))).map((m) => m.split(':')[0]), ['spec.signerName']);
  const stored = bundle('example.com/foo', 'not a bundle, stored under older rules');
  assert.deepEqual(strategy.validateUpdate(structuredClone(stored), stored), [], 'an unchanged bundle is not parsed again');
  assert.deepEqual(messages(strategy.validateUpdate(bundle('example.com/foo', 'still not one'), stored)), ['spec.trustBundle: at least one trust anchor must be provided']);
  assert.deepEqual(messages(strategy.validateUpdate(bundle('example.com/bar', stored['spec'] ? 'not a bundle, stored under older rules' : ''), stored)),
    ['spec.signerName: field is immutable']);
  assert.deepEqual(strategy.selectableFields?.(bundle('example.com/foo', '')), { 'spec.signerName': 'example.com/foo' });
  assert.equal(typeof strategy.nameRuleOf?.(bundle(undefined, '')), 'function');
});

test('fuzz: mutated, truncated and random bundles and names are answered with errors, never a throw', async () => {
  const ca = await createCa('fuzz-bundle-ca');
  const der = decodePemBlocks(ca.certPem)[0]!.bytes;
  for (let seed = 1; seed <= 300; seed++) {
    const rand = seededRandom(seed);
    const bytes = Buffer.from(der);
    const pick = Math.floor(rand() * 5);
    let bundle: string;
    if (pick === 0) {
      for (let i = 0; i < 1 + Math.floor(rand() * 8); i++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      bundle = encodePem('CERTIFICATE', bytes);
    } else if (pick === 1) {
      bundle = encodePem('CERTIFICATE', bytes.subarray(0, Math.floor(rand() * bytes.length)));
    } else if (pick === 2) {
      bundle = String.fromCharCode(...Array.from({ length: Math.floor(rand() * 400) }, () => Math.floor(rand() * 256)));
    } else if (pick === 3) {
      bundle = ca.certPem.slice(0, Math.floor(rand() * ca.certPem.length)) + ca.certPem;
    } else {
      bundle = `${ca.certPem}\n-----BEGIN CERTIFICATE-----\n${Buffer.from(Array.from({ length: 64 }, () => Math.floor(rand() * 256))).toString('base64')}\n-----END CERTIFICATE-----\n`;
    }
    let errors: unknown;
    assert.doesNotThrow(() => (errors = trustBundleErrors('spec.trustBundle', bundle)), `seed ${seed}`);
    assert.ok(Array.isArray(errors), `seed ${seed}`);
    const name = String.fromCharCode(...Array.from({ length: Math.floor(rand() * 40) }, () => 32 + Math.floor(rand() * 95)));
    assert.doesNotThrow(() => checkName(clusterTrustBundleNameRule(rand() < 0.5 ? '' : 'example.com/foo'), name, rand() < 0.3), `seed ${seed}`);
  }
});
