/**
 * Secrets (pkg/registry/core/secret, pkg/apis/core/validation ValidateSecret and ValidateSecretUpdate): `stringData`
 * merged into `data` on write and dropped, `type` defaulted to Opaque and immutable, `immutable: true` freezes data,
 * keys validated, the values at most 1 MiB, data values base64, and the keys each built-in type requires. A service account token Secret must name its account in the
 * `<domain>/service-account.name` annotation; the token controller fills the rest.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { semanticEqual } from './semantic-equal.js';
import { maxDataSize, validateDataKey } from './configmaps.js';
import { coreMetaErrors } from './core-meta.js';
import { x509KeyPairError } from './secret-warnings.js';

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
  // A null stringData is Go's nil map: nothing to merge.
  if (secret.stringData !== undefined && secret.stringData !== null) {
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

/** The built-in Secret types and the data keys they require (pkg/apis/core types.go), in a flavour. */
export function secretTypes(names: Names) {
  return {
    opaque: 'Opaque',
    serviceAccountToken: names.domain('service-account-token'),
    dockercfg: names.domain('dockercfg'),
    dockerConfigJson: names.domain('dockerconfigjson'),
    basicAuth: names.domain('basic-auth'),
    sshAuth: names.domain('ssh-auth'),
    tls: names.domain('tls'),
  };
}

/** What Go's json.Unmarshal into a map says of a value, or undefined when it is a JSON object. */
function jsonObjectError(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 'unexpected end of JSON input';
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    const first = trimmed[0]!;
    if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
    const literal = first === 't' ? 'true' : first === 'f' ? 'false' : first === 'n' ? 'null' : undefined;
    if (literal !== undefined) {
      for (let i = 1; i < literal.length; i++) {
        if (i >= trimmed.length) return 'unexpected end of JSON input';
        if (trimmed[i] !== literal[i]) return `invalid character '${trimmed[i]}' in literal ${literal} (expecting '${literal[i]}')`;
      }
      return `invalid character '${trimmed[literal.length]}' after top-level value`;
    }
    return 'unexpected end of JSON input';
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return undefined;
  const goType = Array.isArray(parsed) ? 'array' : parsed === null ? undefined : typeof parsed === 'string' ? 'string' : typeof parsed === 'number' ? 'number' : 'bool';
  return goType === undefined ? undefined : `json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`;
}

/**
 * ValidateSecret: data keys are config keys, the values total at most 1 MiB, data values are base64, and each
 * built-in type carries the keys it needs (a token Secret names its account; docker configs are JSON objects;
 * basic-auth has a username or a password; ssh-auth a private key; tls both `tls.crt` and `tls.key`).
 */
function validateSecret(object: KubeObject, names: Names): FieldError[] {
  const types = secretTypes(names);
  const tokens = serviceAccountTokenNames(names);
  const secret = object as SecretShape;
  const errs: FieldError[] = [];
  const data = secret.data ?? {};
  const decoded = new Map<string, Buffer>();
  let size = 0;
  for (const [k, v] of Object.entries(data)) {
    errs.push(...validateDataKey(`data[${k}]`, k));
    if (typeof v !== 'string' || !base64.test(v)) {
      errs.push(fieldError.invalid(`data[${k}]`, '<secret contents redacted>', 'a valid base64 string is required'));
    } else {
      const bytes = Buffer.from(v, 'base64');
      decoded.set(k, bytes);
      size += bytes.length;
    }
  }
  if (size > maxDataSize) errs.push(fieldError.tooLong('data', maxDataSize));
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(data, key);
  const jsonKey = (key: string): void => {
    if (!has(key)) {
      errs.push(fieldError.required(`data[${key}]`));
      return;
    }
    const problem = jsonObjectError((decoded.get(key) ?? Buffer.alloc(0)).toString('utf8'));
    if (problem !== undefined) errs.push(fieldError.invalid(`data[${key}]`, '<secret contents redacted>', problem));
  };
  switch (secret.type) {
    case tokens.type:
      if (!object.metadata?.annotations?.[tokens.nameAnnotation]) errs.push(fieldError.required(`metadata.annotations[${tokens.nameAnnotation}]`));
      break;
    case types.dockercfg:
      jsonKey('.dockercfg');
      break;
    case types.dockerConfigJson:
      jsonKey('.dockerconfigjson');
      break;
    case types.basicAuth:
      if (!has('username') && !has('password')) errs.push(fieldError.required('data[username]'), fieldError.required('data[password]'));
      break;
    case types.sshAuth:
      if ((decoded.get('ssh-privatekey')?.length ?? 0) === 0) errs.push(fieldError.required('data[ssh-privatekey]'));
      break;
    case types.tls:
      if (!has('tls.crt')) errs.push(fieldError.required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(fieldError.required('data[tls.key]'));
      break;
    default:
      break;
  }
  return errs;
}

/** warningsForSecret: a TLS Secret whose certificate and key do not load as a pair. */
function secretWarnings(object: KubeObject, names: Names): string[] {
  const secret = object as SecretShape;
  if (secret.type !== secretTypes(names).tls) return [];
  const bytes = (key: string): Buffer => Buffer.from(typeof secret.data?.[key] === 'string' ? secret.data[key]! : '', 'base64');
  const problem = x509KeyPairError(bytes('tls.crt'), bytes('tls.key'));
  return problem === undefined ? [] : [problem];
}

/** The secret strategy. */
export function secretStrategy(names: Names): Strategy {
  return defineStrategy({
    // Both are decoding in kube (the v1 conversion and SetDefaults_Secret): the writer owns the data and type.
    defaults: normalize,
    validate: (object) => [...coreMetaErrors(object, names), ...validateSecret(object, names)],
    warnings: (object) => secretWarnings(object, names),
    validateUpdate(object, old) {
      const errs: FieldError[] = [];
      const secret = object as SecretShape;
      const before = old as SecretShape;
      if ((secret.type ?? 'Opaque') !== (before.type ?? 'Opaque')) errs.push(fieldError.invalid('type', secret.type, 'field is immutable'));
      if (before.immutable === true) {
        if (secret.immutable !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!semanticEqual(secret.data ?? {}, before.data ?? {})) {
          errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
        }
      }
      return [...coreMetaErrors(object, names), ...errs, ...validateSecret(object, names)];
    },
    selectableFields: fieldsAt('type'),
  });
}
