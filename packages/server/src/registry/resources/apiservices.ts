/**
 * APIServices (kube-aggregator's strategy and ValidateAPIService): the name is `<version>.<group>`, the group a DNS
 * subdomain (empty only for the legacy `v1`), the version a DNS-1035 label, the priorities are in range, a service reference names its namespace and name and a valid port, `caBundle` and
 * `insecureSkipTLSVerify` exclude each other; a create starts without status, the status subresource writes only
 * status.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isPathSegmentName } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

interface ApiServiceShape {
  spec?: {
    group?: string; version?: string; groupPriorityMinimum?: number; versionPriority?: number;
    caBundle?: string; insecureSkipTLSVerify?: boolean; service?: { namespace?: string; name?: string; port?: number } | null;
  };
}

/** ValidateAPIService. */
export function validateApiService(object: KubeObject): FieldError[] {
  const spec = (object as ApiServiceShape).spec ?? {};
  const errors: FieldError[] = [];
  const name = object.metadata?.name ?? '';
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const required = `${version}.${group}`;
  // A name that is not even a path segment is reported by the metadata checks; only a valid one must match.
  if (name !== '' && isPathSegmentName(name).length === 0 && name !== required) {
    errors.push(fieldError.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`));
  }
  if (group === '' && version !== 'v1') errors.push(fieldError.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const e of isDns1123Subdomain(group)) errors.push(fieldError.invalid('spec.group', group, e));
  for (const e of isDns1035Label(version)) errors.push(fieldError.invalid('spec.version', version, e));
  const gp = spec.groupPriorityMinimum ?? 0;
  if (gp <= 0 || gp > 20000) errors.push(fieldError.invalid('spec.groupPriorityMinimum', gp, 'must be positive and less than 20000'));
  const vp = spec.versionPriority ?? 0;
  if (vp <= 0 || vp > 1000) errors.push(fieldError.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  const svc = spec.service;
  if (svc === undefined || svc === null) {
    if (spec.caBundle) errors.push(fieldError.invalid('spec.caBundle', `${Buffer.from(spec.caBundle, 'base64').length} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify === true) errors.push(fieldError.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errors;
  }
  if (!svc.namespace) errors.push(fieldError.required('spec.service.namespace', ''));
  else for (const e of isDns1123Label(svc.namespace)) errors.push(fieldError.invalid('spec.service.namespace', svc.namespace, e));
  if (!svc.name) errors.push(fieldError.required('spec.service.name', ''));
  else for (const e of isDns1035Label(svc.name)) errors.push(fieldError.invalid('spec.service.name', svc.name, e));
  if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535)) {
    errors.push(fieldError.invalid('spec.service.port', svc.port, 'must be a valid port number'));
  }
  if (spec.insecureSkipTLSVerify === true && spec.caBundle) {
    errors.push(fieldError.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  }
  return errors;
}

/** The strategy of apiservices. */
export function apiServiceStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    // The name is `<version>.<group>` (`v1.` for the core group): only a path segment, as kube-aggregator checks.
    nameRule: 'pathSegment',
    prepareForCreate(object) {
      // kube-aggregator defaults a service's port to 443.
      const svc = (object as ApiServiceShape).spec?.service;
      if (svc && svc.port === undefined) svc.port = 443;
    },
    validate: validateApiService,
    validateUpdate: validateApiService,
  });
}
