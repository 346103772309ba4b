import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeYaml } from './decode.js';
import { decodeYamlBody, offThreadBytes } from './yaml-decoder.js';

/** The decoding thread's answer, compared with decoding on this thread: the same value, key order and duplicates. */
async function sameAsInThread(text: string): Promise<void> {
  const body = Buffer.from(text);
  assert.ok(body.length >= offThreadBytes);
  const off = await decodeYamlBody(body, false);
  const here = decodeYaml(body, false);
  assert.deepEqual(off, here);
  if (off.ok && here.ok) assert.equal(JSON.stringify(off.value), JSON.stringify(here.value));
}

test('large YAML bodies decoded on the decoding thread read as they read on the event loop', async () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `  k${i}: ${i % 3 === 0 ? i : i % 3 === 1 ? `"v${i}"` : 'yes'}\n`).join('');
  await sameAsInThread(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${lines}`);
  await sameAsInThread(`spec:\n  list:\n${Array.from({ length: 10_000 }, (_, i) => `  - {name: e${i}, n: ${i / 4}, on: null}\n`).join('')}`);
  // Duplicated keys are reported as the in-thread decoder reports them.
  await sameAsInThread(`a: 1\na: 2\nb:\n${lines}`);
  // A negative zero is not JSON's: such a value comes back as it is.
  await sameAsInThread(`z: -0.0\nb:\n${lines}`);
  // JSON text sent as YAML (kubectl's apply) is read by the JSON parser, in slices when large.
  const data: Record<string, string> = {};
  for (let i = 0; i < 30_000; i++) data[`k${i}`] = 'v';
  await sameAsInThread(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data }));
  await sameAsInThread(`{"z": 1, "z": 2, "data": ${JSON.stringify(data)}}`);
});
