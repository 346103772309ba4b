/**
 * Label maps and metav1 label selectors as k8s.io/apimachinery/pkg/apis/meta/v1/validation checks them in 1.27
 * (ValidateLabels, ValidateLabelSelector, ValidateLabelSelectorRequirement): keys are qualified names, values label
 * values, both reported at the map's own path; a requirement's operator, values and key; and whether a selector
 * selects a set of labels.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isLabelValue } from '../../meta/name-rules.js';
import { list, obj, objects, qualifiedName, text, type Json } from './field-checks.js';

/** ValidateLabels at `path`: every key a qualified name, every value a label value, reported at `path` itself. */
export function validateLabelMap(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(obj(labels))) {
    errs.push(...qualifiedName(k, path));
    for (const msg of isLabelValue(text(v))) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

/**
 * The operator and values of a selector requirement (ValidateLabelSelectorRequirement, and with `gtLt` a node
 * selector's ValidateNodeSelectorRequirement, which adds Gt and Lt with one value).
 */
export function requirementErrors(requirement: Json, path: string, gtLt: boolean): FieldError[] {
  const values = list(requirement['values']);
  switch (requirement['operator']) {
    case 'In': case 'NotIn':
      return values.length === 0 ? [fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists': case 'DoesNotExist':
      return values.length > 0 ? [fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] : [];
    case 'Gt': case 'Lt':
      if (gtLt) return values.length !== 1 ? [fieldError.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'")] : [];
      break;
    default:
      break;
  }
  return [fieldError.invalid(`${path}.operator`, text(requirement['operator']), 'not a valid selector operator')];
}

/** LabelSelectorValidationOptions. */
export interface LabelSelectorOptions {
  /** The stored object already held selector values that are not label values (they stay allowed). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

/** ValidateLabelSelector (a metav1.LabelSelector) at `path`; an absent selector is valid. */
export function validateLabelSelector(selector: unknown, path: string, options: LabelSelectorOptions = {}): FieldError[] {
  if (selector === undefined || selector === null) return [];
  const s = obj(selector);
  const errs = validateLabelMap(s['matchLabels'], `${path}.matchLabels`);
  objects(s['matchExpressions']).forEach((e, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = list(e['values']);
    errs.push(...requirementErrors(e, at, false));
    errs.push(...qualifiedName(text(e['key']), `${at}.key`));
    if (options.allowInvalidLabelValueInSelector !== true) {
      values.forEach((v, j) => {
        for (const msg of isLabelValue(text(v))) errs.push(fieldError.invalid(`${at}.values[${j}]`, v, msg));
      });
    }
  });
  return errs;
}

/** True when a selector holds a value that is not a label value (the old object's relaxation of the value check). */
export function hasInvalidLabelValue(selector: unknown): boolean {
  return objects(obj(selector)['matchExpressions']).some((e) => list(e['values']).some((v) => isLabelValue(text(v)).length > 0));
}

/** True when a metav1.LabelSelector selects the labels (for the template-labels check). */
export function selectorMatches(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  const s = obj(selector);
  for (const [k, v] of Object.entries(obj(s['matchLabels']))) if (labels[k] !== v) return false;
  for (const e of objects(s['matchExpressions'])) {
    const key = text(e['key']);
    const values = list(e['values']).map(String);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (e['operator']) {
      case 'In': if (!has || !values.includes(labels[key]!)) return false; break;
      case 'NotIn': if (has && values.includes(labels[key]!)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}
