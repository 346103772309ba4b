#!/usr/bin/env node
// Evaluations per second of a typical CRD validation rule on a typical object, compiled once (after `npm run build`):
//   node packages/server/scripts/cel-evaluations.mjs [seconds]
import { compile } from '../dist/cel/compile.js';
import { celEnvironment } from '../dist/cel/environment.js';
import { activation, evaluate } from '../dist/cel/evaluate.js';
import { declTypeOf } from '../dist/cel/schema-types.js';

const seconds = Number(process.argv[2] ?? 2);
const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
        image: { type: 'string', maxLength: 253 },
        ports: { type: 'array', maxItems: 16, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer' } } } },
      },
    },
  },
};
const type = declTypeOf(schema, { typeName: 'Widget', isResourceRoot: true });
const env = celEnvironment([{ name: 'self', type }]);
const rule = "self.spec.minReplicas <= self.spec.replicas && self.spec.image.startsWith('registry.example.com/') && self.spec.ports.all(p, p.port > 0 && p.port < 65536)";
const compiled = compile(rule, env);
if (!compiled.ok) throw new Error(compiled.error.message);
const object = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' },
  spec: { replicas: 3, minReplicas: 1, image: 'registry.example.com/web:1.0', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] } };

function measure(convertEachTime) {
  let n = 0;
  const act = activation(env, { self: object });
  const end = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < end) {
    for (let i = 0; i < 1000; i++) {
      const r = evaluate(compiled.value, convertEachTime ? activation(env, { self: object }) : act);
      if (!r.ok || r.value !== true) throw new Error('unexpected result');
    }
    n += 1000;
  }
  return n / seconds;
}
measure(false);
console.log(`rule: ${rule}`);
console.log(`evaluations/s, activation reused:      ${Math.round(measure(false))}`);
console.log(`evaluations/s, object converted each:  ${Math.round(measure(true))}`);
