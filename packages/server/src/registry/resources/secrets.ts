/**
 * Secrets (pkg/registry/core/secret, pkg/apis/core/validation ValidateSecret): `stringData` merged into `data` on
 * write and dropped, `type` defaulted to Opaque and immutable, `immutable: true` freezes data, keys validated,
 * total size at most 1 MiB, data values base64. A service account token Secret must name its account in the
 * `<domain>/service-account.name` annotation; the token controller fills the rest.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { semanticEqual } from './semantic-equal.js';
import { maxDataSize, validateDataKey } from './configmaps.js';

interface SecretShape {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Merges `stringData` into `data` (base64-encoded, stringData wins) and defaults `type`, as kube's conversion does. */
function normalize(object: KubeObject): void {
  const secret = object as KubeObject & SecretShape;
  if (secret.stringData !== undefined) {
    const data = { ...(secret.data ?? {}) };
    for (const [k, v] of Object.entries(secret.stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    secret.data = data;
    delete secret.stringData;
  }
  if (!secret.type) secret.type = 'Opaque';
}

/** The type and annotation of service account token Secrets in a flavour. */
export function serviceAccountTokenNames(names: Names): { type: string; nameAnnotation: string; uidAnnotation: string } {
  return {
    type: names.domain('service-account-token'),
    nameAnnotation: names.domain('service-account.name'),
    uidAnnotation: names.domain('service-account.uid'),
  };
}

function validateSecret(object: KubeObject, tokens: ReturnType<typeof serviceAccountTokenNames>): FieldError[] {
  const secret = object as SecretShape;
  const errs: FieldError[] = [];
  if (secret.type === tokens.type && !object.metadata?.annotations?.[tokens.nameAnnotation]) {
    errs.push(fieldError.required(`metadata.annotations[${tokens.nameAnnotation}]`));
  }
  let size = 0;
  for (const [k, v] of Object.entries(secret.data ?? {})) {
    errs.push(...validateDataKey(`data[${k}]`, k));
    if (typeof v !== 'string' || !base64.test(v)) {
      errs.push(fieldError.invalid(`data[${k}]`, '<secret contents redacted>', 'a valid base64 string is required'));
    } else {
      size += k.length + Buffer.from(v, 'base64').length;
    }
  }
  if (size > maxDataSize) errs.push(fieldError.tooLong('data', maxDataSize));
  return errs;
}

/** The secret strategy. */
export function secretStrategy(names: Names): Strategy {
  const tokens = serviceAccountTokenNames(names);
  return defineStrategy({
    prepareForCreate: normalize,
    prepareForUpdate: (object) => normalize(object),
    validate: (object) => validateSecret(object, tokens),
    validateUpdate(object, old) {
      const errs = validateSecret(object, tokens);
      const secret = object as SecretShape;
      const before = old as SecretShape;
      if ((secret.type ?? 'Opaque') !== (before.type ?? 'Opaque')) errs.push(fieldError.invalid('type', secret.type, 'field is immutable'));
      if (before.immutable === true) {
        if (secret.immutable !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!semanticEqual(secret.data ?? {}, before.data ?? {})) {
          errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
        }
      }
      return errs;
    },
    selectableFields: fieldsAt('type'),
  });
}
