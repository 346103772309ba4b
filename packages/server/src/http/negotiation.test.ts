import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { negotiateResponse } from './negotiation.js';
import { parseAccept, parseMediaType } from './media-type.js';
import { discoveryFormat } from './routes/aggregated-discovery.js';
import { decodeJson, decodeYaml } from './decode.js';
import { encodeBody, encodeJson } from './encode.js';

const none = new URLSearchParams();
const mt = (accept: string | undefined, q = none) => negotiateResponse(accept, q)?.mediaType;

test('media types with parameters and q-values', () => {
  assert.deepEqual(parseMediaType('Application/JSON; charset=utf-8'), { type: 'application/json', params: { charset: 'utf-8' }, q: 1 });
  assert.equal(parseMediaType('nonsense'), undefined);
  assert.deepEqual(parseAccept('application/yaml;q=0.5, application/json').map((m) => m.type), ['application/json', 'application/yaml']);
  assert.deepEqual(parseAccept('application/json;q=0').length, 0);
});

test('response negotiation', () => {
  assert.equal(mt(undefined), 'application/json');
  assert.equal(mt(''), 'application/json');
  assert.equal(mt('*/*'), 'application/json');
  assert.equal(mt('application/*'), 'application/json');
  assert.equal(mt('application/yaml'), 'application/yaml');
  assert.equal(mt('text/html, application/yaml;q=0.9, application/json;q=0.8'), 'application/yaml');
  assert.equal(mt('text/html, application/json'), 'application/json');
  assert.equal(mt('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'), 'application/json');
  assert.equal(mt('application/json;as=Table;v=v1;g=meta.k8s.io'), 'application/json', 'Table alone falls back to JSON');
  assert.equal(mt('application/json;as=Unknown'), undefined);
  assert.equal(mt('text/html'), undefined);
  assert.equal(mt('application/vnd.svc.protobuf'), undefined);
  assert.equal(negotiateResponse(undefined, new URLSearchParams('pretty=true'))?.pretty, true);
  assert.equal(negotiateResponse(undefined, new URLSearchParams('pretty=false'))?.pretty, false);
});

test('discovery format: aggregated only for this flavour\'s group', () => {
  const svc = namesFor('svc');
  const k8s = namesFor('k8s');
  const agg = (g: string) => `application/json;g=${g};v=v2beta1;as=APIGroupDiscoveryList,application/json`;
  assert.equal(discoveryFormat(agg('apidiscovery.svc.io'), svc), 'aggregated');
  assert.equal(discoveryFormat(agg('apidiscovery.k8s.io'), k8s), 'aggregated');
  assert.equal(discoveryFormat(agg('apidiscovery.k8s.io'), svc), 'plain');
  assert.equal(discoveryFormat('application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList;q=0.5,application/json', svc), 'plain');
  assert.equal(discoveryFormat(undefined, svc), 'plain');
  assert.equal(discoveryFormat('text/html', svc), 'none');
});

test('decoding: JSON errors are 400; YAML 1.1 as kube-apiserver reads it', () => {
  const bad = decodeJson(Buffer.from('{"a": tru'));
  assert.ok(!bad.ok && bad.error.code === 400 && bad.error.reason === 'BadRequest');
  assert.ok(!decodeJson(Buffer.from('')).ok);
  const y = decodeYaml(Buffer.from('a: yes\nb: no\nc: on\nd: 0644\ne: 0x10\nf: 2021-03-04T05:06:07Z\ng: 1:30\nh: ~\ni: 12345678901234567890\nj: 42\n'));
  assert.ok(y.ok);
  assert.deepEqual(y.value, { a: true, b: false, c: true, d: 420, e: 16, f: '2021-03-04T05:06:07Z', g: '1:30', h: null, i: 12345678901234567890n, j: 42 });
  const merged = decodeYaml(Buffer.from('base: &b {x: 1}\nm:\n  <<: *b\n  z: 2\n'));
  assert.ok(merged.ok);
  assert.deepEqual((merged.value as { m: unknown }).m, { x: 1, z: 2 });
  const multi = decodeYaml(Buffer.from('a: 1\n---\nb: 2\n'));
  assert.ok(!multi.ok && multi.error.code === 400);
  assert.ok(decodeYaml(Buffer.from('---\na: 1\n')).ok, 'a leading document marker is one document');
  const broken = decodeYaml(Buffer.from('a: [\n'));
  assert.ok(!broken.ok && broken.error.code === 400);
});

test('encoding: JSON with newline, pretty with two spaces, YAML, exact big integers', () => {
  assert.equal(encodeBody({ a: 1 }, 'application/json', false), '{"a":1}\n');
  assert.equal(encodeBody({ a: 1 }, 'application/json', true), '{\n  "a": 1\n}\n');
  assert.equal(encodeBody({ a: 1, b: ['x'] }, 'application/yaml', false), 'a: 1\nb:\n- x\n');
  assert.equal(encodeJson({ i: 12345678901234567890n }), '{"i":12345678901234567890}');
  assert.equal(encodeJson({ i: 1n, s: 'x' }, 2), '{\n  "i": 1,\n  "s": "x"\n}', 'big integers pretty-printed');
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  assert.throws(() => encodeJson(cyclic), TypeError, 'a cycle is still a bug, not a body');
});

test('resource endpoints: protobuf, Table and metadata conversions, 406 when nothing fits', () => {
  const pb = 'application/vnd.svc.protobuf';
  const resource = { protobufMediaType: pb, canProtobuf: () => true, metaGroup: 'meta.svc.io' };
  const neg = (accept: string, o: Parameters<typeof negotiateResponse>[2] = resource) => negotiateResponse(accept, none, o);
  assert.deepEqual(neg(`${pb}, */*`), { mediaType: pb, pretty: false, binary: true });
  assert.equal(neg(`${pb}, application/json`, { ...resource, canProtobuf: () => false })?.mediaType, 'application/json', 'no message: JSON');
  assert.equal(neg(pb, { ...resource, canProtobuf: () => false }), undefined, 'protobuf only, no message: 406');
  assert.equal(neg('application/vnd.kubernetes.protobuf'), undefined, 'the other flavour\'s type is not served');
  const kubectlGet = 'application/json;as=Table;v=v1;g=meta.svc.io,application/json;as=Table;v=v1beta1;g=meta.svc.io,application/json';
  assert.deepEqual(neg(kubectlGet)?.conversion, { kind: 'Table', group: 'meta.svc.io', version: 'v1' });
  assert.equal(neg('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')?.conversion, undefined, 'other meta group: plain JSON');
  assert.equal(neg('application/json;as=Table;v=v1;g=meta.k8s.io'), undefined, 'other meta group only: 406');
  assert.equal(neg(`${pb};as=Table;v=v1;g=meta.svc.io`), undefined, 'Tables are JSON or YAML only');
  assert.equal(neg('application/yaml;as=Table;v=v1beta1;g=meta.svc.io')?.mediaType, 'application/yaml');
  assert.deepEqual(neg(`${pb};as=PartialObjectMetadataList;g=meta.svc.io;v=v1,application/json`),
    { mediaType: pb, pretty: false, binary: true, conversion: { kind: 'PartialObjectMetadataList', group: 'meta.svc.io', version: 'v1' } });
  assert.equal(neg('application/json;as=Unknown;g=meta.svc.io;v=v1'), undefined);
  assert.equal(neg('application/yaml', { ...resource, stream: true }), undefined, 'no YAML watch streams');
});
