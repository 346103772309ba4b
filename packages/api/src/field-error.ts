/**
 * Field errors: the result of validation, turned into a 422 Invalid Status with one cause per field.
 * Mirrors k8s.io/apimachinery/pkg/util/validation/field (types, messages and the Invalid Status layout).
 */
import { goBadValue } from './go-values.js';
import { failure, type QualifiedResource, type Status } from './status.js';

/** The kinds of field error, as kube-apiserver names them in `details.causes[].reason`. */
export const fieldErrorTypes = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
} as const;

/** A field error type. */
export type FieldErrorType = keyof typeof fieldErrorTypes;

/** One invalid field. `badValue` is shown in the message for the types that show it. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  detail: string;
  badValue?: unknown;
  /** The bad value as the message prints it, where its JSON would not read as kube's does ({@link ofDecodedValue}). */
  shownValue?: string;
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** `field: Type: detail` or `field: Invalid value: "bad": detail`, as field.Error.Error() prints it. */
export function fieldErrorMessage(e: FieldError): string {
  const label = fieldErrorTypes[e.type];
  // Required, Forbidden, TooLong and Internal print no value (field.Error.ErrorBody); the others do, TooMany its count.
  const showsValue = e.type === 'FieldValueInvalid' || e.type === 'FieldValueNotSupported' ||
    e.type === 'FieldValueDuplicate' || e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotFound' || e.type === 'FieldValueTooMany';
  let msg = `${e.field}: ${label}`;
  if (showsValue && e.shownValue !== undefined) msg += `: ${e.shownValue}`;
  else if (showsValue && 'badValue' in e) msg += `: ${formatValue(e.badValue)}`;
  if (e.detail) msg += `: ${e.detail}`;
  return msg;
}

/**
 * `e` about a value of a custom object: kube's validation holds what JSON decoding made of it (`map[string]interface
 * {}`, `[]interface {}`, int64 or float64), so the message prints it as Go does (`map[string]interface {}{"a":1}`).
 */
export function ofDecodedValue(e: FieldError): FieldError {
  return 'badValue' in e ? { ...e, shownValue: goBadValue(e.badValue) } : e;
}

/** Constructors in the order kube-apiserver's validation code uses them. */
export const fieldError = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  invalid: (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail }),
  notSupported: (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported', field, badValue,
    detail: supported.length ? `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` : '',
  }),
  duplicate: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  tooLong: (field: string, maxLength: number): FieldError => ({ type: 'FieldValueTooLong', field, detail: `must have at most ${maxLength} bytes` }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field, detail: `must have at most ${max} items`, badValue: actual }),
  typeInvalid: (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, badValue, detail }),
  notFound: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, detail: '' }),
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};

/**
 * 422 Invalid: `ConfigMap "x" is invalid: <one error>` or `Deployment.apps "x" is invalid: [<e1>, <e2>]` (an error
 * repeated word for word is shown once, as errors.NewInvalid's aggregate shows it), with one cause per field error.
 */
export function invalid(kind: string, qr: QualifiedResource, name: string, errors: readonly FieldError[]): Status {
  // ErrorList.ToAggregate drops repeated errors from the message; the causes keep every one.
  const messages = [...new Set(errors.map(fieldErrorMessage))];
  const joined = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
  // The message names the group-qualified kind (`Deployment.apps`), details the kind and group apart.
  const qualifiedKind = qr.group ? `${kind}.${qr.group}` : kind;
  return failure('Invalid', `${qualifiedKind} "${name}" is invalid: ${joined}`, {
    ...(name ? { name } : {}),
    ...(qr.group ? { group: qr.group } : {}),
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: fieldErrorMessage(e).slice(e.field.length + 2), field: e.field })),
  });
}
