/**
 * Name rules of object metadata (k8s.io/apimachinery/pkg/util/validation and .../api/validation): each check
 * returns kube-apiserver's messages, an empty list when the value is valid.
 */
import { labelValueErrors, qualifiedNameErrors } from '@svc-apiserver/api/label-selector';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1123Label = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123Subdomain = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035Label = new RegExp(`^${dns1035LabelFmt}$`);

/** IsDNS1123Subdomain: lowercase RFC 1123 subdomain, at most 253 characters. */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123Subdomain.test(value)) {
    errs.push(`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${dns1123SubdomainFmt}')`);
  }
  return errs;
}

/** IsDNS1123Label: lowercase RFC 1123 label, at most 63 characters. */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(value)) {
    errs.push(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${dns1123LabelFmt}')`);
  }
  return errs;
}

/** IsDNS1035Label: RFC 1035 label (starts with a letter), at most 63 characters. */
export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value)) {
    errs.push(`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035LabelFmt}')`);
  }
  return errs;
}

/** IsValidPathSegmentName: what every stored name must be at least (it becomes a URL path segment). */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (value.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** IsQualifiedName: `[prefix/]name` as label keys, annotation keys and finalizers are. */
export function isQualifiedName(value: string): string[] {
  return qualifiedNameErrors(value);
}

/** IsValidLabelValue. */
export function isLabelValue(value: string): string[] {
  return labelValueErrors(value);
}

/** A name check of a type's own (kube's ValidateNameFunc): the problems of a name, or of a generateName prefix. */
export type NameCheck = (value: string, prefix: boolean) => string[];

/** The name rule a resource applies to `metadata.name`: one of the common rules, or a check of its own. */
export type NameRule = 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment' | NameCheck;

const ruleChecks: Record<Exclude<NameRule, NameCheck>, (value: string) => string[]> = {
  dns1123Subdomain: isDns1123Subdomain,
  dns1123Label: isDns1123Label,
  dns1035Label: isDns1035Label,
  pathSegment: isPathSegmentName,
};

/**
 * A ValidateNameFunc: checks a name, or a generateName prefix when `prefix` is true (a trailing `-` is then
 * allowed, as kube's maskTrailingDash allows it, since a random suffix follows).
 */
export function checkName(rule: NameRule, value: string, prefix: boolean): string[] {
  if (typeof rule === 'function') return rule(value, prefix);
  const masked = prefix && value.length > 1 && value.endsWith('-') ? `${value.slice(0, -1)}a` : value;
  return ruleChecks[rule](masked);
}
