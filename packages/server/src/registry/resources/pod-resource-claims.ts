/**
 * A pod spec's resource claims (DynamicResourceAllocation, alpha in 1.27; the fields reach validation only where the
 * gate kept them): validatePodResourceClaims (names unique DNS labels, each with exactly one source naming a valid
 * claim or claim template) and validateResourceClaimNames (a container's `resources.claims` name claims of the pod,
 * each once).
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { dns1123Label, dns1123Subdomain, isSet, obj, objects, text, type Json } from './field-checks.js';

/** validatePodResourceClaims at `path` (`spec.resourceClaims`); `podName` names the claims a template creates. */
export function podResourceClaimErrors(claims: unknown, path: string, podName?: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(claims).forEach((claim, i) => {
    const at = `${path}[${i}]`;
    const name = text(claim['name']);
    const source = obj(claim['source']);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else {
      const nameErrs = dns1123Label(name, `${at}.name`);
      errs.push(...nameErrs);
      if (nameErrs.length === 0 && podName !== undefined && podName !== '' && isSet(source['resourceClaimTemplateName'])) {
        const claimName = `${podName}-${name}`;
        for (const e of dns1123Subdomain(claimName, `${at}.name`)) errs.push(fieldError.invalid(`${at}.name`, claimName, `final ResourceClaim name: ${e.detail}`));
      }
      names.add(name);
    }
    errs.push(...claimSourceErrors(source, `${at}.source`));
  });
  return errs;
}

/** validatePodResourceClaimSource. */
function claimSourceErrors(source: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const byName = isSet(source['resourceClaimName']);
  const byTemplate = isSet(source['resourceClaimTemplateName']);
  if (byName && byTemplate) errs.push(fieldError.invalid(path, source, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
  if (!byName && !byTemplate) errs.push(fieldError.invalid(path, source, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
  if (byName) errs.push(...dns1123Subdomain(text(source['resourceClaimName']), `${path}.resourceClaimName`));
  if (byTemplate) errs.push(...dns1123Subdomain(text(source['resourceClaimTemplateName']), `${path}.resourceClaimTemplateName`));
  return errs;
}

/** validateResourceClaimNames: a container's claims at `path` (`...resources.claims`) name the pod's claims once each. */
export function containerClaimErrors(claims: unknown, podClaims: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(claims).forEach((claim, i) => {
    const name = text(claim['name']);
    const at = `${path}[${i}]`;
    if (name === '') {
      errs.push(fieldError.required(at));
      return;
    }
    if (seen.has(name)) errs.push(fieldError.duplicate(at, name));
    seen.add(name);
    if (!podClaims.has(name)) {
      const known = [...podClaims].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`;
      errs.push({ ...fieldError.notFound(at, name), detail });
    }
  });
  return errs;
}
