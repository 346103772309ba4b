import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  defaultFeatureGates, featureGateStates, knownFeatureGates, parseFeatureGates, resolveFeatureGates, setFeatureGates,
  settableFeatureGates, type FeatureGate,
} from './feature-gates.js';
import { featureGateTable } from './feature-gates-table.js';

const parsed = (value: string) => {
  const r = parseFeatureGates(value);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
};
const refusal = (value: string) => {
  const r = parseFeatureGates(value);
  assert.ok(!r.ok, `${value} was accepted`);
  return r.error;
};

test('the table holds kube-apiserver 1.27 gates with their stage, default and lock', () => {
  assert.equal(Object.keys(featureGateTable).length, 147);
  const expect: Record<string, unknown> = {
    APIListChunking: { default: true, stage: 'BETA' },
    APIPriorityAndFairness: { default: true, stage: 'BETA' },
    WatchList: { default: false, stage: 'ALPHA' },
    ValidatingAdmissionPolicy: { default: false, stage: 'ALPHA' },
    AdmissionWebhookMatchConditions: { default: false, stage: 'ALPHA' },
    APISelfSubjectReview: { default: true, stage: 'BETA' },
    ServerSideApply: { default: true, stage: 'GA', lockToDefault: true },
    DryRun: { default: true, stage: 'GA', lockToDefault: true },
    ExecProbeTimeout: { default: true, stage: 'GA' },
    ComponentSLIs: { default: true, stage: 'BETA' },
    ContextualLogging: { default: false, stage: 'ALPHA' },
    InPlacePodVerticalScaling: { default: false, stage: 'ALPHA' },
    CustomCPUCFSQuotaPeriod: { default: false, stage: 'ALPHA' },
  };
  for (const [name, spec] of Object.entries(expect)) assert.deepEqual(knownFeatureGates[name as FeatureGate], spec, name);
  // The lifecycle's invariants: alpha gates are off by default, locked gates are GA and on, and the table is sorted.
  for (const [name, spec] of Object.entries(featureGateTable)) {
    const s: { default: boolean; stage: string; lockToDefault?: true } = spec;
    if (s.stage === 'ALPHA' && name !== 'WindowsHostNetwork') assert.equal(s.default, false, name);
    if (s.lockToDefault === true) assert.deepEqual([s.stage, s.default], ['GA', true], name);
  }
  const names = Object.keys(featureGateTable);
  assert.deepEqual(names, [...names].sort());
  assert.deepEqual([knownFeatureGates.AllAlpha, knownFeatureGates.AllBeta], [{ default: false, stage: 'ALPHA' }, { default: false, stage: 'BETA' }]);
});

test('setting gates: values in Go boolean forms, later entries and flags win, defaults otherwise', () => {
  const g = parsed('WatchList=true, APIListChunking = false,ValidatingAdmissionPolicy=T,,AdmissionWebhookMatchConditions=1');
  assert.deepEqual([g.WatchList, g.APIListChunking, g.ValidatingAdmissionPolicy, g.AdmissionWebhookMatchConditions], [true, false, true, true]);
  assert.equal(g.APIPriorityAndFairness, true);
  assert.equal(parsed('WatchList=true,WatchList=false').WatchList, false);
  assert.deepEqual(parsed(''), defaultFeatureGates);
  const first = setFeatureGates('WatchList=true');
  assert.ok(first.ok);
  const second = setFeatureGates('APIListChunking=false', first.value.settings);
  assert.ok(second.ok);
  const both = resolveFeatureGates(second.value.settings);
  assert.deepEqual([both.WatchList, both.APIListChunking], [true, false]);
});

test('refusals are worded as kube words them', () => {
  assert.equal(refusal('NoSuchGate=true'), 'unrecognized feature gate: NoSuchGate');
  assert.equal(refusal('watchlist=true'), 'unrecognized feature gate: watchlist', 'names are case-sensitive');
  assert.equal(refusal('WatchList'), 'missing bool value for WatchList');
  assert.equal(refusal(' '), 'missing bool value for ');
  assert.equal(refusal('WatchList=yes'), 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
  assert.equal(refusal('WatchList='), 'invalid value of WatchList=, err: strconv.ParseBool: parsing "": invalid syntax');
  assert.equal(refusal('WatchList=true=false'), 'invalid value of WatchList=true=false, err: strconv.ParseBool: parsing "true=false": invalid syntax');
  assert.equal(refusal('ServerSideApply=false'), 'cannot set feature gate ServerSideApply to false, feature is locked to true');
  assert.equal(refusal('DryRun=0'), 'cannot set feature gate DryRun to false, feature is locked to true');
  // A malformed entry fails before anything else is looked at.
  assert.equal(refusal('NoSuchGate=true,WatchList=maybe'), 'invalid value of WatchList=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
});

test('GA gates set to their value, or an unlocked one set otherwise, warn as klog does', () => {
  const locked = setFeatureGates('ServerSideApply=true,WatchList=true');
  assert.ok(locked.ok);
  assert.deepEqual(locked.value.warnings, ['Setting GA feature gate ServerSideApply=true. It will be removed in a future release.']);
  const unlocked = setFeatureGates('ExecProbeTimeout=false');
  assert.ok(unlocked.ok);
  assert.deepEqual(unlocked.value.warnings, ['Setting GA feature gate ExecProbeTimeout=false. It will be removed in a future release.']);
  assert.equal(resolveFeatureGates(unlocked.value.settings).ExecProbeTimeout, false);
  const beta = setFeatureGates('APIPriorityAndFairness=false');
  assert.ok(beta.ok);
  assert.deepEqual(beta.value.warnings, []);
});

test('AllAlpha and AllBeta set the gates of their stage that no flag named', () => {
  const alpha = parsed('AllAlpha=true,ValidatingAdmissionPolicy=false');
  assert.equal(alpha.AllAlpha, true);
  assert.equal(alpha.WatchList, true);
  assert.equal(alpha.ValidatingAdmissionPolicy, false, 'named in the same flag: the name wins, in either order');
  assert.equal(parsed('ValidatingAdmissionPolicy=false,AllAlpha=true').ValidatingAdmissionPolicy, false);
  assert.equal(alpha.APIListChunking, true, 'beta gates keep their default');
  const earlier = setFeatureGates('WatchList=false');
  assert.ok(earlier.ok);
  const later = setFeatureGates('AllAlpha=true', earlier.value.settings);
  assert.ok(later.ok);
  assert.equal(resolveFeatureGates(later.value.settings).WatchList, false, 'named by an earlier flag: left alone');
  const beta = parsed('AllBeta=false');
  assert.deepEqual([beta.APIPriorityAndFairness, beta.APIListChunking, beta.ServerSideApply, beta.WatchList], [false, false, true, false]);
});

test('states for kubernetes_feature_enabled: every gate, GA with an empty stage', () => {
  const states = featureGateStates(parsed('WatchList=true'));
  assert.equal(states.length, 149);
  assert.deepEqual(states.find((s) => s.name === 'WatchList'), { name: 'WatchList', stage: 'ALPHA', enabled: true });
  assert.deepEqual(states.find((s) => s.name === 'ServerSideApply'), { name: 'ServerSideApply', stage: '', enabled: true });
  assert.deepEqual(states.find((s) => s.name === 'AllBeta'), { name: 'AllBeta', stage: 'BETA', enabled: false });
});

test('help lists the alpha and beta gates as kube does', () => {
  const list = settableFeatureGates();
  assert.ok(list.includes('WatchList=true|false (ALPHA - default=false)'));
  assert.ok(list.includes('APIPriorityAndFairness=true|false (BETA - default=true)'));
  assert.ok(!list.some((l) => l.startsWith('ServerSideApply=')));
});
