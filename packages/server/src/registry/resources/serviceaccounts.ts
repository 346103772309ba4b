/**
 * ServiceAccounts (pkg/registry/core/serviceaccount; ValidateServiceAccount, 1.27): DNS-1123 subdomain names; a
 * write keeps only the name of each `secrets` reference (cleanSecretReferences); a delete answers with the object.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { coreMetaErrors } from './core-meta.js';

/** cleanSecretReferences: a service account's secret references name a secret and nothing else. */
function cleanSecretReferences(object: KubeObject): void {
  const secrets = object['secrets'];
  if (!Array.isArray(secrets)) return;
  object['secrets'] = secrets.map((s: unknown) => {
    const name = typeof s === 'object' && s !== null ? (s as Record<string, unknown>)['name'] : undefined;
    return name === undefined || name === '' ? {} : { name };
  });
}

/** The serviceaccount strategy of a flavour. */
export function serviceAccountStrategy(names: Names): Strategy {
  return defineStrategy({
    returnDeletedObject: true,
    prepareForCreate: cleanSecretReferences,
    prepareForUpdate: (object) => cleanSecretReferences(object),
    validate: (object) => coreMetaErrors(object, names),
    validateUpdate: (object) => coreMetaErrors(object, names),
  });
}
