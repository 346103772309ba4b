/**
 * ConfigMaps (pkg/apis/core/validation ValidateConfigMap): keys of `data` and `binaryData` are config keys and
 * unique across both, the total size is at most 1 MiB, `immutable: true` freezes the data.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { coreMetaErrors } from './core-meta.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { semanticEqual } from './semantic-equal.js';

/** Largest total size of a ConfigMap's or Secret's data (MaxSecretSize). */
export const maxDataSize = 1024 * 1024;

const configKey = /^[-._a-zA-Z0-9]+$/;

/** IsConfigMapKey, reported as kube-apiserver reports it. */
export function validateDataKey(path: string, key: string): FieldError[] {
  const errs: FieldError[] = [];
  if (key.length > 253) errs.push(fieldError.invalid(path, key, 'must be no more than 253 characters'));
  if (!configKey.test(key)) {
    errs.push(fieldError.invalid(path, key, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"));
  }
  if (key === '.' || key === '..') errs.push(fieldError.invalid(path, key, `must not be '${key}'`));
  else if (key.startsWith('..')) errs.push(fieldError.invalid(path, key, "must not start with '..'"));
  return errs;
}

interface ConfigMapShape {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** True for a key {@link validateDataKey} finds nothing wrong with (checked without building a path or a list). */
function plainKey(key: string): boolean {
  return key.length <= 253 && configKey.test(key) && key !== '.' && !key.startsWith('..');
}

function validateConfigMap(object: KubeObject): FieldError[] {
  const cm = object as ConfigMapShape;
  const errs: FieldError[] = [];
  let size = 0;
  // Keys, then values: Object.entries of a map of many keys costs several times as much.
  const data = cm.data ?? {};
  for (const k of Object.keys(data)) {
    const v = data[k];
    if (!plainKey(k)) errs.push(...validateDataKey(`data[${k}]`, k));
    if (cm.binaryData && Object.prototype.hasOwnProperty.call(cm.binaryData, k)) {
      errs.push(fieldError.invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
    }
    size += Buffer.byteLength(String(v));
  }
  const binaryData = cm.binaryData ?? {};
  for (const k of Object.keys(binaryData)) {
    const v = binaryData[k];
    if (!plainKey(k)) errs.push(...validateDataKey(`binaryData[${k}]`, k));
    size += Buffer.from(String(v), 'base64').length;
  }
  if (size > maxDataSize) errs.push(fieldError.tooLong('', maxDataSize));
  return errs;
}

/** The configmap strategy. */
export function configMapStrategy(names: Names): Strategy {
  return defineStrategy({
    validate: (object) => [...coreMetaErrors(object, names), ...validateConfigMap(object)],
    validateUpdate(object, old) {
      const errs: FieldError[] = [];
      const cm = object as ConfigMapShape;
      const before = old as ConfigMapShape;
      if (before.immutable === true) {
        if (cm.immutable !== true) errs.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!semanticEqual(cm.data ?? {}, before.data ?? {})) {
          errs.push(fieldError.forbidden('data', 'field is immutable when `immutable` is set'));
        }
        if (!semanticEqual(cm.binaryData ?? {}, before.binaryData ?? {})) {
          errs.push(fieldError.forbidden('binaryData', 'field is immutable when `immutable` is set'));
        }
      }
      return [...coreMetaErrors(object, names), ...errs, ...validateConfigMap(object)];
    },
  });
}

