import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJson, decodeJsonYielding, decodeYaml, findDuplicateJsonFields } from './decode.js';

test('JSON duplicate fields are reported with their full path at any depth; the last value wins', () => {
  const r = decodeJson(Buffer.from('{"a":1,"spec":{"x":[{"n":1,"n":2}],"y":"\\"q\\u0022","y":3},"a":2,"s":"{\\"a\\":1,\\"a\\":2}"}'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: 2, spec: { x: [{ n: 2 }], y: 3 }, s: '{"a":1,"a":2}' });
  assert.deepEqual(r.duplicateFields, ['duplicate field "spec.x[0].n"', 'duplicate field "spec.y"', 'duplicate field "a"']);
  assert.deepEqual(findDuplicateJsonFields('[{"a":1},{"a":1,"b":{"c":1,"c":2}}]'), ['[1].b.c']);
  assert.deepEqual(findDuplicateJsonFields('{"a\\u0062":1,"ab":2}'), ['ab'], 'escaped keys compare decoded');
});

test('JSON bodies are scanned for duplicates only when their keys outnumber the parsed ones, and every duplicate is still found', () => {
  const dups = (text: string): readonly string[] | undefined => {
    const r = decodeJson(Buffer.from(text));
    assert.ok(r.ok, text);
    return r.duplicateFields;
  };
  assert.deepEqual(dups('{"a":1,"b":[{"c":{}},[],{"d":"{\\"e\\":1}"}],"f":{"g":null}}'), []);
  assert.deepEqual(dups(' { "a" : [ { "x" : 1 } , { "x" : 2 } ] , "b" : { } } '), [], 'keys of sibling objects are not duplicates');
  assert.deepEqual(dups('{"a\\u0062":1,"ab":2}'), ['duplicate field "ab"'], 'an escaped spelling of a key is the same key');
  assert.deepEqual(dups('{"__proto__":1,"__proto__":2}'), ['duplicate field "__proto__"']);
  assert.deepEqual(dups('{"l":[[{"k":1,"k":2}]],"m":{"n":{"o":1,"o":1}}}'), ['duplicate field "l[0][0].k"', 'duplicate field "m.n.o"']);
  // A YAML body that is JSON text with a duplicate goes to the YAML reader, which words it go-yaml's way.
  const yaml = decodeYaml(Buffer.from('{"a":1,"a":2}'));
  assert.ok(yaml.ok);
  assert.deepEqual(yaml.duplicateFields, ['line 1: key "a" already set in map']);
});

test('YAML duplicate keys are reported as go-yaml does, by line, sorted; the last value wins', () => {
  const r = decodeYaml(Buffer.from('a: 1\nspec:\n  x: 1\n  x: 2\na: 3\nm:\n  <<: {k: 1}\n  k: 2\n'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: 3, spec: { x: 2 }, m: { k: 2 } });
  assert.deepEqual(r.duplicateFields, ['line 4: key "x" already set in map', 'line 5: key "a" already set in map']);
});

/** The Status message of a failed decode. */
function refused(r: ReturnType<typeof decodeJson>): string {
  assert.ok(!r.ok, 'the body is refused');
  assert.equal(r.error.code, 400);
  return r.error.message ?? '';
}

test('bodies nested past the limit are refused before parsing, in JSON and in every YAML style', () => {
  const deep = 10_000;
  assert.match(refused(decodeJson(Buffer.from('{"a":'.repeat(deep) + '1' + '}'.repeat(deep)))), /nested too deeply/);
  assert.match(refused(decodeJson(Buffer.from('['.repeat(1_500_000)))), /nested too deeply/);
  const bodies = [
    '{"a":'.repeat(deep) + '1' + '}'.repeat(deep),
    '['.repeat(deep) + '1' + ']'.repeat(deep),
    'a: ' + '[{"b": '.repeat(deep),
    '- '.repeat(deep) + '1\n',
    Array.from({ length: 400 }, (_, i) => ' '.repeat(i) + 'a:\n').join('') + ' '.repeat(400) + 'b: 1\n',
  ];
  for (const body of bodies) {
    const message = refused(decodeYaml(Buffer.from(body)));
    assert.match(message, /nested too deeply/, body.slice(0, 40));
    assert.doesNotMatch(message, /call stack/);
  }
  const fine = decodeYaml(Buffer.from(Array.from({ length: 100 }, (_, i) => ' '.repeat(i) + 'a:\n').join('') + ' '.repeat(100) + 'b: 1\n'));
  assert.ok(fine.ok, 'a hundred levels are fine');
  const wide = decodeYaml(Buffer.from(Array.from({ length: 80 }, (_, i) => ' '.repeat(4 * i) + 'a:\n').join('') + ' '.repeat(320) + 'b: 1\n'));
  assert.ok(wide.ok, 'eighty levels indented four spaces each are fine');
  const exact = decodeYaml(Buffer.from(Array.from({ length: 300 }, (_, i) => ' '.repeat(i) + 'a:\n').join('') + ' '.repeat(300) + 'b: 1\n'));
  assert.match(refused(exact), /nested too deeply/, 'past the limit by the composed value');
});

test('YAML alias bombs are refused as go-yaml refuses them; modest aliasing is expanded', () => {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
  assert.equal(refused(decodeYaml(Buffer.from(lines.join('\n') + '\n'))), 'yaml: document contains excessive aliasing');
  const big = `x: &x "${'y'.repeat(100_000)}"\n` + Array.from({ length: 200 }, (_, i) => `k${i}: *x`).join('\n');
  assert.equal(refused(decodeYaml(Buffer.from(big))), 'yaml: document contains excessive aliasing');
  const ok = decodeYaml(Buffer.from('base: &b {cpu: 1}\nmerged:\n  <<: *b\n  mem: 2\ncopy: *b\n'));
  assert.ok(ok.ok);
  assert.deepEqual(ok.value, { base: { cpu: 1 }, merged: { cpu: 1, mem: 2 }, copy: { cpu: 1 } });
  const v = ok.value as { base: object; copy: object };
  assert.notEqual(v.base, v.copy, 'aliases are copies, as go-yaml makes them');
});

test('YAML tags and scalars become the JSON go-yaml makes; infinities are refused', () => {
  const r = decodeYaml(Buffer.from('bin: !!binary aGVsbG8=\nset: !!set {a, b}\nomap: !!omap [p: 1, q: 2]\nbig: 18446744073709551615\nhuge: 1' + '0'.repeat(30) + '\nint: 12\n'));
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.value, { bin: 'hello', set: { a: null, b: null }, omap: { p: 1, q: 2 }, big: 18446744073709551615n, huge: 1e30, int: 12 });
  assert.equal(refused(decodeYaml(Buffer.from('x: .inf\n'))), 'json: unsupported value: +Inf');
  assert.equal(refused(decodeYaml(Buffer.from('x: .nan\n'))), 'json: unsupported value: NaN');
  assert.match(refused(decodeJson(Buffer.from('{"x": 1e999}'))), /out of range/);
});

test('a YAML body that is JSON text reads as YAML would read it', () => {
  const r = decodeYaml(Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"yes"},"n":1.5}'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'yes' }, n: 1.5 });
  const exact = decodeYaml(Buffer.from('{"n": 9007199254740993}'));
  assert.ok(exact.ok);
  assert.deepEqual(exact.value, { n: 9007199254740993n }, 'integers a double cannot hold stay exact');
  const dup = decodeYaml(Buffer.from('{"a": 1,\n "a": 2}'));
  assert.ok(dup.ok);
  assert.deepEqual(dup.duplicateFields, ['line 2: key "a" already set in map']);
});

test('large YAML bodies are decoded on the decoding thread, with the same results', async () => {
  const { decodeYamlBody, offThreadBytes } = await import('./yaml-decoder.js');
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: big', 'data:'];
  for (let i = 0; lines.join('\n').length < offThreadBytes * 2; i++) lines.push(`  k${i}: "v${i}"`);
  const body = Buffer.from(lines.join('\n') + '\nbig: 12345678901234567890\n');
  const inline = decodeYaml(body, false);
  const threaded = await decodeYamlBody(body, false);
  assert.ok(threaded.ok && inline.ok);
  assert.deepEqual(threaded.value, inline.value);
  assert.equal(typeof (threaded.value as { big: unknown }).big, 'number', 'request bodies hold no bigint');
  const bomb = await decodeYamlBody(Buffer.from(`x: &x "${'y'.repeat(offThreadBytes)}"\n` + Array.from({ length: 500 }, (_, i) => `k${i}: *x`).join('\n')), false);
  assert.ok(!bomb.ok);
  assert.equal(bomb.error.message, 'yaml: document contains excessive aliasing');
  const json = await decodeYamlBody(Buffer.from(JSON.stringify({ kind: 'ConfigMap', data: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v'])) })), false);
  assert.ok(json.ok, 'JSON text is read at once');
});

test('large JSON bodies decode in slices to what the one-shot decoder gives: values, duplicates and errors', async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < 30_000; i++) data[`k${i}`] = `v${i}`;
  const good = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data });
  const bodies = [
    good,
    good.replace('"k7":"v7"', '"k7":"v7","k7":"again"'),
    good.replace('"metadata":{', '"metadata":{"name":"first",'),
    good.replace('"k9":"v9"', '"k9":1e400'),
    good.replace('"k9":"v9"', '"k9":12345678901234567890'),
    good.slice(0, -3),
    `${good} x`,
    `[${good}]`,
  ];
  for (const text of bodies) {
    const body = Buffer.from(text);
    const sliced = await decodeJsonYielding(body);
    assert.deepEqual(sliced, decodeJson(body));
    if (sliced.ok) assert.equal(JSON.stringify(sliced.value), JSON.stringify(decodeJson(body).ok ? (decodeJson(body) as { value: unknown }).value : undefined));
  }
});

test('decoding a large JSON body gives the event loop back: other work gets turns before it is done', async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < 200_000; i++) data[`k${i}`] = 'v';
  const body = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data }));
  let turns = 0;
  let decoding = true;
  const tick = (): void => {
    turns++;
    if (decoding) setImmediate(tick);
  };
  setImmediate(tick);
  const decoded = await decodeJsonYielding(body);
  decoding = false;
  assert.ok(decoded.ok);
  assert.ok(turns >= 2, `${turns} turns of other work while a ${body.length}-byte body was decoded`);
});
