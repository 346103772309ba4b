import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { evaluatePolicy, loadPolicyFile } from './policy.js';
import { userAndInfo } from '../testing/request-attributes.js';
import { seededRandom } from '../testing/seeded-random.js';

const names = namesFor('svc');
const levels = ['None', 'Metadata', 'Request', 'RequestResponse'];
const stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];
const fragments = [
  'apiVersion: audit.svc.io/v1', 'apiVersion: audit.k8s.io/v1', 'kind: Policy', 'kind: Polcy', 'rules:', 'rules: {}', 'rules: []',
  '- level: Metadata', '- level: RequestResponse', '- level: Bogus', '- level: 7', '  users: [alice, "system:*"]', '  users: alice',
  '  userGroups: [system:masters]', '  verbs: [get, list, "*"]', '  verbs: [[]]', '  resources:', '  - group: ""',
  '    resources: [secrets, "pods/*", "*/status"]', '    resourceNames: [a]', '  - group: 12', '  namespaces: [kube-system, ""]',
  '  nonResourceURLs: ["/healthz*", "/api", "*"]', '  nonResourceURLs: [x]', '  omitStages: [RequestReceived]', '  omitStages: [Nope]',
  'omitStages: [ResponseStarted]', 'omitStages: 3', 'omitManagedFields: true', 'omitManagedFields: "yes"', '  omitManagedFields: false',
  '&a [*a]', 'a: &x [1,2]', 'b: [*x, *x, *x]', '{', '}', ': :', '"\\u0000"', '!!binary AAAA', '- - - -', '\t', '---', 'null',
];

test('malformed audit policy files are refused with a message, never thrown; accepted ones decide a known level for any request', (t) => {
  const random = seededRandom(23);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const dir = tempDir(t, 'audit-policy-fuzz-');
  let accepted = 0;
  for (let i = 0; i < 400; i++) {
    const lines = Array.from({ length: 1 + Math.floor(random() * 14) }, () => pick(fragments));
    // A well-formed head on most cases so the rules themselves are exercised, not only the envelope.
    const head = random() < 0.7 ? ['apiVersion: audit.svc.io/v1', 'kind: Policy', 'rules:', '- level: Metadata'] : [];
    const text = random() < 0.1 ? lines.join('').slice(0, Math.floor(random() * 80)) : [...head, ...lines].join('\n');
    const file = join(dir, `policy-${i}.yaml`);
    writeFileSync(file, text);
    const policy = loadPolicyFile(file, names);
    if (!policy.ok) {
      assert.ok(typeof policy.error === 'string' && policy.error.length > 0);
      continue;
    }
    accepted++;
    for (let j = 0; j < 5; j++) {
      const resource = random() < 0.6;
      const [user, info] = userAndInfo({
        username: pick(['alice', 'system:admin', '']), groups: [pick(['system:masters', 'system:authenticated'])],
        verb: pick(['get', 'list', 'create', 'watch']), isResourceRequest: resource, apiGroup: pick(['', 'apps']),
        resource: resource ? pick(['secrets', 'pods', 'configmaps']) : '', subresource: resource ? pick(['', 'status']) : '',
        namespace: resource ? pick(['', 'kube-system', 'default']) : '', name: pick(['', 'a']), path: pick(['/api', '/healthz', '/livez']),
      });
      const decision = evaluatePolicy(policy.value, user, info);
      assert.ok(levels.includes(decision.level), decision.level);
      for (const stage of decision.omitStages) assert.ok(stages.includes(stage), stage);
    }
  }
  assert.ok(accepted > 0, 'some generated policies are valid, so evaluation is exercised');
});
