/**
 * ClusterTrustBundles (`certificates.svc.io/v1alpha1`, pkg/registry/certificates/clustertrustbundle and
 * ValidateClusterTrustBundle / ValidateClusterTrustBundleUpdate of 1.27): cluster-scoped sets of X.509 trust
 * anchors, served when `certificates.svc.io/v1alpha1` is enabled (`--runtime-config`).
 *
 * - Name: a bundle naming a signer must be named `<signerName with / as :>:<DNS subdomain>`; one without a signer
 *   may not have `:` in its name.
 * - `spec.signerName`, when set, a valid signer name, and immutable.
 * - `spec.trustBundle`: at most 1 MiB of PEM holding only `CERTIFICATE` blocks without headers, each a CA
 *   certificate, none twice, at least one; re-checked on update only when it changed (so a bundle stored under older
 *   parsing rules stays writable).
 * - Field selector `spec.signerName`.
 */
import { X509Certificate } from 'node:crypto';
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { checkName, type NameRule } from '../../meta/name-rules.js';
import { decodePemBlocks } from '../../pki/pem.js';
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { text } from './field-checks.js';
import { immutable } from './object-fields.js';
import { validateSignerName } from './signer-name.js';

/** certificates.MaxTrustBundleSize. */
const maxTrustBundleSize = 1024 * 1024;

const spec = (object: KubeObject): Record<string, unknown> => {
  const value = object['spec'];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
};

/** kube's ValidateClusterTrustBundleName: the name rule for a bundle of `signerName`. */
export function clusterTrustBundleNameRule(signerName: string): NameRule {
  return (name, prefix) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return checkName('dns1123Subdomain', name, prefix);
    }
    const required = `${signerName.replaceAll('/', ':')}:`;
    if (!name.startsWith(required)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
    return checkName('dns1123Subdomain', name.slice(required.length), prefix);
  };
}

/** validateTrustBundle: the problems of a PEM trust bundle. */
export function trustBundleErrors(path: string, bundle: string): FieldError[] {
  if (Buffer.byteLength(bundle) > maxTrustBundleSize) return [fieldError.tooLong(path, maxTrustBundleSize)];
  const errs: FieldError[] = [];
  const invalid = (detail: string): void => void errs.push(fieldError.invalid(path, '<value omitted>', detail));
  const seen = new Map<string, number[]>();
  decodePemBlocks(bundle).forEach((block, i) => {
    if (block.type !== 'CERTIFICATE') return invalid(`entry ${i} has bad block type: ${block.type}`);
    if (block.headers.length > 0) return invalid(`entry ${i} has PEM block headers`);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(block.bytes);
    } catch {
      return invalid(`entry ${i} does not parse as X.509`);
    }
    // Go sets IsCA only from a basic constraints extension, so a CA certificate always has valid ones: kube's
    // separate "invalid basic constraints" check cannot fail after this one.
    if (!certificate.ca) return invalid(`entry ${i} does not have the CA bit set`);
    const key = Buffer.from(block.bytes).toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  });
  // A malformed block says enough: no further complaints about duplicates or an empty bundle.
  if (errs.length > 0) return errs;
  if (seen.size === 0) invalid('at least one trust anchor must be provided');
  // Go prints the indices as a slice: [0 2].
  for (const indices of seen.values()) if (indices.length > 1) invalid(`duplicate trust anchor (indices [${indices.join(' ')}])`);
  return errs;
}

function validateClusterTrustBundle(object: KubeObject, parseBundle: boolean): FieldError[] {
  const s = spec(object);
  const errs: FieldError[] = [];
  const signerName = text(s['signerName']);
  if (signerName !== '') errs.push(...validateSignerName('spec.signerName', signerName));
  if (parseBundle) errs.push(...trustBundleErrors('spec.trustBundle', text(s['trustBundle'])));
  return errs;
}

/** The clustertrustbundles strategy. */
export function clusterTrustBundleStrategy(): Strategy {
  return defineStrategy({
    allowUnconditionalUpdate: false,
    nameRuleOf: (object) => clusterTrustBundleNameRule(text(spec(object)['signerName'])),
    validate: (object) => validateClusterTrustBundle(object, true),
    validateUpdate: (object, old) => [
      ...validateClusterTrustBundle(object, spec(object)['trustBundle'] !== spec(old)['trustBundle']),
      ...immutable('spec.signerName', spec(object)['signerName'], spec(old)['signerName']),
    ],
    selectableFields: fieldsAt('spec.signerName'),
  });
}
