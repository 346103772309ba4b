/**
 * Signer names (pkg/apis/core/validation ValidateSignerName), as CertificateSigningRequests and ClusterTrustBundles
 * name a signer: `<domain>/<path>`.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1123Label, isDns1123Subdomain } from '../../meta/name-rules.js';

/** kube's ValidateSignerName: `<domain>/<path>`, a domain of two or more DNS labels, a path of DNS subdomains. */
export function validateSignerName(field: string, signerName: unknown): FieldError[] {
  if (typeof signerName !== 'string' || signerName === '') return [fieldError.required(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldError.invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, path] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(fieldError.tooLong(field, 253));
  const labels = domain.split('.');
  for (const label of labels) {
    const problems = isDns1123Label(label);
    if (problems.length > 0) {
      for (const p of problems) errs.push(fieldError.invalid(field, domain, `validating label "${label}": ${p}`));
      break;
    }
  }
  if (labels.length < 2) errs.push(fieldError.invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  for (const component of path.split('.')) {
    const problems = isDns1123Subdomain(component);
    if (problems.length > 0) {
      for (const p of problems) errs.push(fieldError.invalid(field, path, `validating component "${component}": ${p}`));
      break;
    }
  }
  if (path.length > 251) errs.push(fieldError.tooLong(field, 251));
  return errs;
}
