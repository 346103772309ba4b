/**
 * batch/v1 Jobs (pkg/registry/batch/job, pkg/apis/batch/validation and batch/v1 defaults, 1.27): `parallelism` and
 * `completions` 1 when both are unset, `backoffLimit` 6, `completionMode` NonIndexed, `suspend` false, the template's
 * labels on a job without labels; without `manualSelector` the selector gets the controller-uid label and the
 * template the controller-uid and job-name labels (`batch.<domain>/` and the legacy bare ones), and validation holds
 * the selector to them ("`selector` not auto-generated"); ValidateJobSpec's counts, completion mode, Indexed limits
 * and pod failure policy (JobPodFailurePolicy drops it while off); on update the selector, completion mode and pod
 * failure policy are immutable, completions too except in tandem with parallelism on an Indexed job
 * (ElasticIndexedJob), and the template except labels, annotations and scheduling directives of a suspended job that
 * never started. (kube's update runs ValidateJobSpec twice, reporting a spec error twice; here it is reported once.)
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import { isDns1123Label } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { isSet, list, obj, objects, qualifiedName, text, type Json } from './field-checks.js';
import { child, immutable, sameJson, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** SetDefaults_Job's spec defaults, in place. */
export function defaultJobSpec(spec: Json): void {
  if (spec['completions'] === undefined && spec['parallelism'] === undefined) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
}

const maxParallelismForIndexedJob = 100000;
const failurePolicyActions = ['Count', 'FailJob', 'Ignore'];
const exitCodeOperators = ['In', 'NotIn'];
const conditionStatuses = ['False', 'True', 'Unknown'];

/** validatePodFailurePolicyRuleOnExitCodes. */
function onExitCodesErrors(rule: Json, containerNames: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = text(rule['operator']);
  if (operator === '') errs.push(fieldError.required(`${path}.operator`, `valid values: ${JSON.stringify(exitCodeOperators)}`));
  else if (!exitCodeOperators.includes(operator)) errs.push(fieldError.notSupported(`${path}.operator`, operator, exitCodeOperators));
  if (isSet(rule['containerName']) && !containerNames.has(text(rule['containerName']))) {
    errs.push(fieldError.invalid(`${path}.containerName`, rule['containerName'], 'must be one of the container or initContainer names in the pod template'));
  }
  const values = list(rule['values']).map((v) => (typeof v === 'number' ? v : 0));
  if (values.length === 0) errs.push(fieldError.invalid(`${path}.values`, list(rule['values']), 'at least one value is required'));
  else if (values.length > 255) errs.push(fieldError.tooMany(`${path}.values`, values.length, 255));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(fieldError.invalid(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldError.duplicate(`${path}.values[${j}]`, v));
    seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(fieldError.invalid(`${path}.values`, values, 'must be ordered'));
  return errs;
}

/** validatePodFailurePolicy (1.27: actions Count, FailJob and Ignore). */
function podFailurePolicyErrors(spec: Json, path: string): FieldError[] {
  const rules = objects(obj(spec['podFailurePolicy'])['rules']);
  const errs: FieldError[] = [];
  if (rules.length > 20) errs.push(fieldError.tooMany(`${path}.rules`, rules.length, 20));
  const templateSpec = obj(obj(spec['template'])['spec']);
  const containerNames = new Set([...objects(templateSpec['containers']), ...objects(templateSpec['initContainers'])].map((c) => text(c['name'])));
  rules.forEach((rule, i) => {
    const at = `${path}.rules[${i}]`;
    const action = text(rule['action']);
    if (action === '') errs.push(fieldError.required(`${at}.action`, `valid values: ${JSON.stringify(failurePolicyActions)}`));
    else if (!failurePolicyActions.includes(action)) errs.push(fieldError.notSupported(`${at}.action`, action, failurePolicyActions));
    const onExitCodes = isSet(rule['onExitCodes']);
    const conditions = objects(rule['onPodConditions']);
    if (onExitCodes) errs.push(...onExitCodesErrors(obj(rule['onExitCodes']), containerNames, `${at}.onExitCodes`));
    if (conditions.length > 20) errs.push(fieldError.tooMany(`${at}.onPodConditions`, conditions.length, 20));
    conditions.forEach((pattern, j) => {
      const patternPath = `${at}.onPodConditions[${j}]`;
      errs.push(...qualifiedName(text(pattern['type']), `${patternPath}.type`));
      const status = text(pattern['status']);
      if (status === '') errs.push(fieldError.required(`${patternPath}.status`, `valid values: ${JSON.stringify(conditionStatuses)}`));
      else if (!conditionStatuses.includes(status)) errs.push(fieldError.notSupported(`${patternPath}.status`, status, conditionStatuses));
    });
    if (onExitCodes && conditions.length > 0) errs.push(fieldError.invalid(at, undefined, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExitCodes && conditions.length === 0) errs.push(fieldError.invalid(at, undefined, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/**
 * validateJobSpec's checks of the counts, completion mode and pod failure policy at `path` (`spec`, or a CronJob's
 * `spec.jobTemplate.spec`); the template and restart policy are checked beside it.
 */
export function validateJobSpec(spec: Json, path = 'spec'): FieldError[] {
  const errs = [
    ...nonNegative(spec, 'parallelism', `${path}.parallelism`),
    ...nonNegative(spec, 'completions', `${path}.completions`),
    ...nonNegative(spec, 'activeDeadlineSeconds', `${path}.activeDeadlineSeconds`),
    ...nonNegative(spec, 'backoffLimit', `${path}.backoffLimit`),
    ...nonNegative(spec, 'ttlSecondsAfterFinished', `${path}.ttlSecondsAfterFinished`),
  ];
  const mode = spec['completionMode'];
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldError.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (!isSet(spec['completions'])) errs.push(fieldError.required(`${path}.completions`, 'when completion mode is Indexed'));
      const parallelism = spec['parallelism'];
      if (typeof parallelism === 'number' && parallelism > maxParallelismForIndexedJob) {
        errs.push(fieldError.invalid(`${path}.parallelism`, parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
    }
  }
  if (isSet(spec['podFailurePolicy'])) errs.push(...podFailurePolicyErrors(spec, `${path}.podFailurePolicy`));
  return errs;
}

/**
 * The template a suspended job that never started compares with (validatePodTemplateUpdate with
 * AllowMutableSchedulingDirectives): the old template with the new one's labels, annotations, node selector,
 * tolerations, scheduling gates and node affinity.
 */
function withNewSchedulingDirectives(oldTemplate: Json, template: Json): Json {
  const out = structuredClone(oldTemplate);
  const meta = child(out, 'metadata');
  const newMeta = obj(template['metadata']);
  for (const key of ['labels', 'annotations']) {
    if (newMeta[key] === undefined) delete meta[key];
    else meta[key] = newMeta[key];
  }
  const spec = child(out, 'spec');
  const newSpec = obj(template['spec']);
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) {
    if (newSpec[key] === undefined) delete spec[key];
    else spec[key] = newSpec[key];
  }
  const affinity = record(newSpec['affinity']);
  const oldAffinity = record(spec['affinity']);
  if (affinity === undefined && oldAffinity !== undefined) {
    // The affinity may be cleared when it held nothing but node affinity.
    delete oldAffinity['nodeAffinity'];
    if (Object.keys(oldAffinity).length === 0) delete spec['affinity'];
  } else if (affinity !== undefined) {
    const kept = oldAffinity ?? {};
    if (affinity['nodeAffinity'] === undefined) delete kept['nodeAffinity'];
    else kept['nodeAffinity'] = affinity['nodeAffinity'];
    spec['affinity'] = kept;
  }
  return out;
}

/** ValidateJobSpecUpdate beyond ValidateJobSpec (the shared workload rules hold the selector). */
function validateJobSpecUpdate(object: KubeObject, oldObject: KubeObject, gates: FeatureGates): FieldError[] {
  const spec = obj(object['spec']);
  const old = obj(oldObject['spec']);
  const errs: FieldError[] = [];
  if (gates.ElasticIndexedJob && spec['completionMode'] === 'Indexed') {
    if (!sameJson(spec['completions'], old['completions']) && isSet(spec['completions']) && spec['completions'] !== spec['parallelism']) {
      errs.push(fieldError.invalid('spec.completions', spec['completions'], 'can only be modified in tandem with spec.parallelism'));
    }
  } else {
    errs.push(...immutable('spec.completions', spec['completions'], old['completions']));
  }
  const mutableScheduling = old['suspend'] === true && record(oldObject.status)?.['startTime'] === undefined;
  const template = obj(spec['template']);
  const oldTemplate = mutableScheduling ? withNewSchedulingDirectives(obj(old['template']), template) : old['template'];
  errs.push(...immutable('spec.template', spec['template'], oldTemplate));
  errs.push(...immutable('spec.completionMode', spec['completionMode'], old['completionMode']));
  errs.push(...immutable('spec.podFailurePolicy', spec['podFailurePolicy'], old['podFailurePolicy']));
  return errs;
}

/** Label keys a Job's generated selector and template use, in a flavour. */
interface JobLabels {
  readonly uid: string;
  readonly name: string;
}

/** ValidateHasLabel at `spec.template.metadata` (its message is the expected value). */
function hasLabel(labels: Json, key: string, value: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  if (labels[key] === undefined) return [fieldError.required(path, value)];
  return labels[key] === value ? [] : [fieldError.invalid(path, labels, value)];
}

/**
 * validateGeneratedSelector: without `manualSelector` the template carries the job's uid and name (the prefixed
 * labels required where RequirePrefixedLabels holds: always on create, on update where the stored template had
 * them) and the selector selects exactly those.
 */
function generatedSelectorErrors(object: KubeObject, keys: JobLabels, requirePrefixed: boolean): FieldError[] {
  const spec = obj(object['spec']);
  if (spec['manualSelector'] === true || !isSet(spec['selector'])) return [];
  const uid = object.metadata?.uid ?? '';
  const name = object.metadata?.name ?? '';
  const errs: FieldError[] = uid === '' ? [fieldError.required('metadata.uid')] : [];
  const labels = obj(obj(obj(spec['template'])['metadata'])['labels']);
  errs.push(...hasLabel(labels, 'controller-uid', uid), ...hasLabel(labels, 'job-name', name));
  const expected: Record<string, string> = { 'controller-uid': uid, 'job-name': name };
  if (requirePrefixed) {
    errs.push(...hasLabel(labels, keys.uid, uid), ...hasLabel(labels, keys.name, name));
    expected[keys.uid] = uid;
    expected[keys.name] = name;
  }
  const selector = obj(spec['selector']);
  const matches = Object.entries(obj(selector['matchLabels'])).every(([k, v]) => expected[k] === v) &&
    objects(selector['matchExpressions']).every((e) => {
      const has = expected[text(e['key'])] !== undefined;
      const values = list(e['values']).map(String);
      switch (e['operator']) {
        case 'In': return has && values.includes(expected[text(e['key'])]!);
        case 'NotIn': return !has || !values.includes(expected[text(e['key'])]!);
        case 'Exists': return has;
        case 'DoesNotExist': return !has;
        default: return true;
      }
    });
  if (!matches) errs.push(fieldError.invalid('spec.selector', spec['selector'], '`selector` not auto-generated'));
  return errs;
}

/**
 * generateSelector: the template gets the job-name and controller-uid labels it lacks, the selector the
 * prefixed controller-uid label.
 */
function generateSelector(object: KubeObject, keys: JobLabels): void {
  const spec = (object['spec'] ??= {}) as Json;
  const uid = object.metadata?.uid ?? '';
  const name = object.metadata?.name ?? '';
  const meta = child(child(spec, 'template'), 'metadata');
  const labels = child(meta, 'labels');
  for (const key of ['job-name', keys.name]) setDefault(labels, key, name);
  for (const key of ['controller-uid', keys.uid]) setDefault(labels, key, uid);
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  setDefault(matchLabels, keys.uid, uid);
}

/** The warning kube gives for a Job or CronJob name that is no DNS label (it names pods and hostnames). */
export function dnsLabelNameWarnings(name: string): string[] {
  const msgs = isDns1123Label(name);
  return msgs.length === 0 ? [] : [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/** The job strategy of a flavour under the server's gates. */
export function jobStrategy(names: Names, gates?: FeatureGates): Strategy {
  const keys: JobLabels = { uid: names.domain('controller-uid', 'batch'), name: names.domain('job-name', 'batch') };
  return workloadStrategy({
    kind: 'Job',
    names,
    ...(gates === undefined ? {} : { gates }),
    initialStatus: () => ({}),
    drop(spec, old, on) {
      if (!on.JobPodFailurePolicy && !isSet(old?.['podFailurePolicy'])) delete spec['podFailurePolicy'];
    },
    defaults(spec, object) {
      defaultJobSpec(spec);
      // SetDefaults_Job: a job without labels takes its template's (before the generated ones are added).
      const templateLabels = record(record(record(spec['template'])?.['metadata'])?.['labels']);
      if (templateLabels !== undefined && Object.keys(templateLabels).length > 0 && Object.keys(object.metadata?.labels ?? {}).length === 0) {
        // In place: the caller holds this metadata object.
        (object.metadata ??= {}).labels = { ...(templateLabels as Record<string, string>) };
      }
    },
    beforeValidate(object, old) {
      // kube generates the selector in Validate: the name a generateName create gets is known only then.
      if (old === undefined && obj(object['spec'])['manualSelector'] !== true) generateSelector(object, keys);
    },
    validate(object, _context, old) {
      const templateLabels = obj(obj(obj(obj(old?.['spec'])['template'])['metadata'])['labels']);
      const requirePrefixed = old === undefined || (templateLabels[keys.uid] !== undefined && templateLabels[keys.name] !== undefined);
      return [...generatedSelectorErrors(object, keys, requirePrefixed), ...validateJobSpec(obj(object['spec']))];
    },
    validateUpdate: (object, old, context) => validateJobSpecUpdate(object, old, context.gates),
    warnings: (object, old) => (old === undefined ? dnsLabelNameWarnings(object.metadata?.name ?? '') : []),
  });
}
