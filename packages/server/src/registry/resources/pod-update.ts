/**
 * What a pod update may change (pkg/apis/core/validation ValidatePodUpdate, 1.27, with InPlacePodVerticalScaling
 * off and PodSchedulingReadiness on): the same containers with non-blank images, activeDeadlineSeconds only set or
 * lowered, tolerations only added, scheduling gates only removed, the QoS class unchanged, and while the pod is
 * still gated, node selector and required node affinity terms only extended; nothing else of the spec but images,
 * the deadline, tolerations, gates and a negative grace period turned 1. Also the annotation rules of
 * ValidatePodSpecificAnnotationUpdates and the QoS class (GetPodQOS) they depend on.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { addQuantities, compareQuantities, parseQuantity, zeroQuantity, type Quantity } from '../../meta/quantity.js';
import { isSet, list, obj, objects, text, type Json } from './field-checks.js';
import { sameJson } from './object-fields.js';
import { tolerationErrors } from './pod-scheduling.js';
import type { PodAnnotationKeys } from './pod-spec.js';

/** ComputePodQOS: BestEffort without cpu or memory requests and limits, Guaranteed when every container limits both and requests equal limits. */
export function computePodQos(spec: Json): string {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const add = (into: Map<string, Quantity>, name: string, q: Quantity): void => {
    into.set(name, addQuantities(into.get(name) ?? zeroQuantity, q));
  };
  for (const c of [...objects(spec['containers']), ...objects(spec['initContainers'])]) {
    const resources = obj(c['resources']);
    for (const [name, value] of Object.entries(obj(resources['requests']))) {
      const q = parseQuantity(value);
      if ((name === 'cpu' || name === 'memory') && q !== undefined && compareQuantities(q, zeroQuantity) > 0) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, value] of Object.entries(obj(resources['limits']))) {
      const q = parseQuantity(value);
      if ((name === 'cpu' || name === 'memory') && q !== undefined && compareQuantities(q, zeroQuantity) > 0) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || compareQuantities(lim, req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** GetPodQOS: the class the status records, else computed. */
function podQos(pod: KubeObject): string {
  const recorded = text(obj(pod.status)['qosClass']);
  return recorded !== '' ? recorded : computePodQos(obj(pod['spec']));
}

/** ValidateContainerUpdates: the same number of containers, each with a non-blank image; true stops the checks. */
function containerUpdates(now: unknown, before: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  if (list(now).length !== list(before).length) return { errs: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  objects(now).forEach((c, i) => {
    const image = text(c['image']);
    if (image === '') errs.push(fieldError.required(`${path}[${i}].image`));
    if (image.trim().length !== image.length) errs.push(fieldError.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration still there but for its tolerationSeconds; then ValidateTolerations again. */
function onlyAddedTolerations(now: unknown, before: unknown, path: string): FieldError[] {
  const strip = (t: Json): Json => {
    const { tolerationSeconds: _s, ...rest } = t;
    return rest;
  };
  for (const old of objects(before)) {
    if (!objects(now).some((t) => sameJson(strip(t), strip(old)))) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return tolerationErrors(now, path);
}

/** validateOnlyDeletedSchedulingGates. */
function onlyDeletedSchedulingGates(now: unknown, before: unknown, path: string): FieldError[] {
  const added = new Map<string, number>();
  objects(now).forEach((g, i) => added.set(text(g['name']), i));
  for (const g of objects(before)) added.delete(text(g['name']));
  return [...added].map(([name, i]) => fieldError.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** validateNodeSelectorMutation: a gated pod's node selector may only gain entries. */
function nodeSelectorMutation(now: Json, before: Json, path: string): FieldError[] {
  for (const [k, v] of Object.entries(before)) {
    if (now[k] !== v) return [fieldError.invalid(path, now, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
  }
  return [];
}

/** validateNodeAffinityMutation: a gated pod's required node selector terms may only gain requirements. */
function nodeAffinityMutation(now: Json | undefined, before: Json | undefined, path: string): FieldError[] {
  const oldRequired = before?.['requiredDuringSchedulingIgnoredDuringExecution'];
  if (!isSet(oldRequired)) return [];
  const oldTerms = objects(obj(oldRequired)['nodeSelectorTerms']);
  const newTerms = objects(obj(now?.['requiredDuringSchedulingIgnoredDuringExecution'])['nodeSelectorTerms']);
  const at = `${path}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) return [fieldError.invalid(at, newTerms, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  const errs: FieldError[] = [];
  oldTerms.forEach((old, i) => {
    const term = newTerms[i] ?? {};
    const additive = ['matchExpressions', 'matchFields'].every((k) => {
      const o = objects(old[k]);
      const n = objects(term[k]);
      return o.length <= n.length && o.every((e, j) => sameJson(e, n[j]));
    });
    if (!additive) errs.push(fieldError.invalid(`${at}[${i}]`, term, 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

const updatable = '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** The spec rules of ValidatePodUpdate (the metadata and spec checks of the new pod run apart). */
export function podSpecUpdateErrors(object: KubeObject, old: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  const before = obj(old['spec']);
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    const checked = containerUpdates(spec[key], before[key], `spec.${key}`);
    errs.push(...checked.errs);
    if (checked.stop) return errs;
  }
  const deadline = spec['activeDeadlineSeconds'];
  const oldDeadline = before['activeDeadlineSeconds'];
  if (isSet(deadline)) {
    const d = typeof deadline === 'number' ? deadline : 0;
    if (d < 0 || d > 2147483647) return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', d, 'must be between 0 and 2147483647, inclusive')];
    if (typeof oldDeadline === 'number' && oldDeadline < d) return [...errs, fieldError.invalid('spec.activeDeadlineSeconds', d, 'must be less than or equal to previous value')];
  } else if (isSet(oldDeadline)) {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerations(spec['tolerations'], before['tolerations'], 'spec.tolerations'));
  errs.push(...onlyDeletedSchedulingGates(spec['schedulingGates'], before['schedulingGates'], 'spec.schedulingGates'));
  if (sameJson(spec, before)) return errs;
  if (podQos(old) !== computePodQos(spec)) errs.push(fieldError.invalid('metadata', text(obj(object.status)['qosClass']), 'Pod QoS is immutable'));
  const munged: Json = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    const oldList = objects(before[key]);
    objects(munged[key]).forEach((c, i) => {
      const image = oldList[i]?.['image'];
      if (image === undefined) delete c['image'];
      else c['image'] = image;
    });
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (before[key] === undefined) delete munged[key];
    else munged[key] = before[key];
  }
  const oldGrace = before['terminationGracePeriodSeconds'];
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged['terminationGracePeriodSeconds'] === 1) munged['terminationGracePeriodSeconds'] = oldGrace;
  if (list(before['schedulingGates']).length > 0) {
    if (!sameJson(munged['nodeSelector'], before['nodeSelector'])) {
      errs.push(...nodeSelectorMutation(obj(munged['nodeSelector']), obj(before['nodeSelector']), 'spec.nodeSelector'));
      if (before['nodeSelector'] === undefined) delete munged['nodeSelector'];
      else munged['nodeSelector'] = before['nodeSelector'];
    }
    const oldAffinity = obj(before['affinity'])['nodeAffinity'];
    const newAffinity = obj(munged['affinity'])['nodeAffinity'];
    if (!sameJson(oldAffinity, newAffinity)) {
      errs.push(...nodeAffinityMutation(newAffinity === undefined ? undefined : obj(newAffinity), oldAffinity === undefined ? undefined : obj(oldAffinity), 'spec.affinity.nodeAffinity'));
      const affinity = munged['affinity'] === undefined ? undefined : obj(munged['affinity']);
      if (affinity === undefined && oldAffinity !== undefined) munged['affinity'] = { nodeAffinity: oldAffinity };
      else if (affinity !== undefined && before['affinity'] === undefined && affinity['podAffinity'] === undefined && affinity['podAntiAffinity'] === undefined) delete munged['affinity'];
      else if (affinity !== undefined) {
        if (oldAffinity === undefined) delete affinity['nodeAffinity'];
        else affinity['nodeAffinity'] = oldAffinity;
      }
    }
  }
  if (!sameJson(munged, before)) errs.push(fieldError.forbidden('spec', `pod updates may not change fields other than ${updatable}`));
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates' own rules: AppArmor and mirror pod annotations are fixed once the pod exists. */
export function podAnnotationUpdateErrors(annotations: Json, oldAnnotations: Json, keys: PodAnnotationKeys): FieldError[] {
  const errs: FieldError[] = [];
  const guarded = (k: string): boolean => k.startsWith(keys.appArmorContainerPrefix) || k === keys.mirrorPod;
  const what = (k: string): string => (k === keys.mirrorPod ? 'mirror pod annotation' : 'AppArmor annotations');
  for (const [k, v] of Object.entries(oldAnnotations)) {
    if (annotations[k] === v || !guarded(k)) continue;
    errs.push(fieldError.forbidden(`metadata.annotations[${k}]`, `may not remove or update ${what(k)}`));
  }
  for (const k of Object.keys(annotations)) {
    if (k in oldAnnotations || !guarded(k)) continue;
    errs.push(fieldError.forbidden(`metadata.annotations[${k}]`, `may not add ${what(k)}`));
  }
  return errs;
}
