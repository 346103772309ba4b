/**
 * The parity corpus covers every built-in kind the server serves by default: for each group-version-resource of the
 * generated catalog that takes creates, an accepted create, an accepted update of the object itself, and a create
 * refused as invalid (422); for those that also take updates, an update refused as invalid too. The virtual
 * create-only kinds (the access reviews, TokenReview) store nothing to update, and some refuse what they cannot
 * answer with kube's 400 BadRequest rather than a 422 (a TokenReview without a token), so for them an accepted and a
 * refused create (400 or 422) suffice. Checked in both flavours, as the corpus runs in both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { loadCatalog } from '../../schema/load-catalog.js';
import { servedResources } from '../../registry/served-resources.js';
import { corpusFiles } from './index.js';
import type { ParityCase, Step } from './corpus.js';

/** A write refused for its content: kube's 422 Invalid, or for the virtual kinds also the review storage's 400. */
function refusedAsInvalid(step: Step, virtual: boolean): boolean {
  return step.expect.code === 422 && step.expect.reason === 'Invalid' || (virtual && step.expect.code === 400 && step.expect.reason === 'BadRequest');
}

const isUpdate = (s: Step): boolean => (s.op === 'update' || s.op === 'patch') && s.subresource === undefined && !(s.op === 'patch' && s.type === 'apply');
const isCreate = (s: Step): boolean => s.op === 'create' || (s.op === 'patch' && s.type === 'apply');

/** What the corpus lacks for each served resource that takes creates, as `<group>/<version>/<resource> (<Kind>): ...`. */
function coverageGaps(flavour: 'svc' | 'k8s'): string[] {
  const names = namesFor(flavour);
  const catalog = loadCatalog(names);
  const cases: readonly ParityCase[] = corpusFiles.flatMap((file) => file(names));
  const gaps: string[] = [];
  for (const served of servedResources) {
    const r = catalog.resources.find((x) => x.groupKey === served.groupKey && x.version === served.version && x.resource === served.resource);
    assert.ok(r, `${served.groupKey}/${served.version}/${served.resource} is served but not in the catalog`);
    if (!r.verbs.includes('create')) continue;
    const mine = cases.filter((c) => c.resource.groupKey === r.groupKey && c.resource.version === r.version && c.resource.resource === r.resource);
    // A case's own kind must be the catalog's, or its objects would be refused for their kind alone.
    for (const c of mine) assert.equal(c.resource.kind, r.kind, `case ${JSON.stringify(c.name)} names kind ${c.resource.kind}`);
    const virtual = mine.some((c) => c.resource.virtual === true);
    // A helper step (the pod a Binding binds) is not a step of the resource's own.
    const steps = mine.flatMap((c) => c.steps.filter((s) => s.op !== 'pod' || r.resource === 'pods'));
    const missing: string[] = [];
    if (!steps.some((s) => isCreate(s) && s.expect.code >= 200 && s.expect.code < 300)) missing.push('an accepted create');
    if (!steps.some((s) => s.op === 'create' && refusedAsInvalid(s, virtual))) missing.push('an invalid create');
    if (r.verbs.includes('update')) {
      if (!steps.some((s) => isUpdate(s) && s.expect.code === 200)) missing.push('an accepted update');
      if (!steps.some((s) => isUpdate(s) && refusedAsInvalid(s, false))) missing.push('an invalid update');
    }
    if (missing.length > 0) gaps.push(`${r.group || 'core'}/${r.version}/${r.resource} (${r.kind}) lacks ${missing.join(', ')}`);
  }
  return gaps;
}

for (const flavour of ['svc', 'k8s'] as const) {
  test(`the corpus has an accepted create and update and invalid writes for every served kind (${flavour} flavour)`, () => {
    assert.deepEqual(coverageGaps(flavour), []);
  });
}
