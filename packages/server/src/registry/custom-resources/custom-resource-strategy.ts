/**
 * The strategy of custom objects (apiextensions-apiserver's customResourceStrategy): `generation` starts at 1 and
 * bumps when anything but metadata changes (with a status subresource, status is kept on main writes and only
 * status changes through `/status`); writes get the schema's defaults; validation is the schema's (kube-openapi's
 * messages), the uniqueness of set and map lists, and the scale subresource's replica and selector fields.
 */
import { failure, fieldError, type FieldError, type KubeObject, type QualifiedResource } from '@svc-apiserver/api';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { CustomScale } from '../resource-def.js';
import type { Strategy } from '../strategy.js';
import { isRecord, type JsonSchemaProps } from '../../apiextensions/schema/json-schema-props.js';
import { applyDefaults, applyDefaultsSteps } from '../../apiextensions/schema/defaulting.js';
import { validateListTypesSteps } from '../../apiextensions/schema/list-type-validation.js';
import { validateValueSteps } from '../../apiextensions/schema/value-validation.js';
import { runSteps, type Steps } from '../../limits/turn-budget.js';
import type { RuleNode } from '../../apiextensions/validation-rules/compiled-rules.js';
import { validateRules } from '../../apiextensions/validation-rules/rule-validator.js';

/** What a custom resource's strategy is made from. */
export interface CustomResourceStrategyOptions {
  readonly schema: JsonSchemaProps;
  readonly hasStatus: boolean;
  readonly scale?: CustomScale;
  /** The CRD is being deleted: creates are refused (405), as kube's CRD handler refuses them. */
  readonly terminating?: boolean;
  /** Group and plural, for the refusal's details. */
  readonly qualified?: QualifiedResource;
  /** The schema's compiled `x-kubernetes-validations` rules, when it has any. */
  readonly rules?: RuleNode;
}

const int32Max = 2 ** 31 - 1;

/** The value at a `.a.b.c` path of an object. */
export function valueAtPath(object: unknown, path: string): { found: boolean; value: unknown } {
  let cur: unknown = object;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (!isRecord(cur) || !Object.hasOwn(cur, part)) return { found: false, value: undefined };
    cur = cur[part];
  }
  return { found: true, value: cur };
}

/** kube's ValidateScaleSpec and ValidateScaleStatus: replicas are non-negative int32s, the selector a string. */
function validateScaleFields(object: KubeObject, scale: CustomScale): FieldError[] {
  const errors: FieldError[] = [];
  const replicas = (path: string): void => {
    const { found, value } = valueAtPath(object, path);
    if (!found) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      errors.push(fieldError.invalid(path, value ?? null, `${path} accessor error: ${JSON.stringify(value)} is of the type ${typeof value}, expected int64`));
    } else if (value < 0) errors.push(fieldError.invalid(path, value, 'should be a non-negative integer'));
    else if (value > int32Max) errors.push(fieldError.invalid(path, value, `should be less than or equal to ${int32Max}`));
  };
  replicas(scale.specReplicasPath);
  replicas(scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const { found, value } = valueAtPath(object, scale.labelSelectorPath);
    if (found && typeof value !== 'string') {
      errors.push(fieldError.invalid(scale.labelSelectorPath, value ?? null, `${scale.labelSelectorPath} accessor error: ${JSON.stringify(value)} is of the type ${typeof value}, expected string`));
    }
  }
  return errors;
}

/** kube's message when validation rules are skipped because the object already has type errors (hasBlockingErr). */
const rulesNotChecked = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/**
 * Everything kube checks of a custom object beyond its metadata; the validation rules run last, on an update
 * with the old object for transition rules, and not at all when an error already says a value has the wrong type.
 */
export function validateCustomObject(object: KubeObject, options: CustomResourceStrategyOptions, old?: KubeObject): FieldError[] {
  return runSteps(validateCustomObjectSteps(object, options, old));
}

/**
 * {@link validateCustomObject} in steps: the schema's walks over a large object may give the event loop back
 * (limits/turn-budget.ts); the errors are the same.
 */
export function* validateCustomObjectSteps(object: KubeObject, options: CustomResourceStrategyOptions, old?: KubeObject): Steps<FieldError[]> {
  const errors = [
    ...(yield* validateValueSteps(options.schema, object, '', { root: true })),
    ...(yield* validateListTypesSteps(options.schema, object)),
    ...(options.scale !== undefined ? validateScaleFields(object, options.scale) : []),
  ];
  if (options.rules === undefined) return errors;
  if (errors.some((e) => e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotSupported')) {
    return [...errors, fieldError.invalid('<nil>', null, rulesNotChecked)];
  }
  return [...errors, ...validateRules(options.rules, object, old)];
}

/** kube's answer to a create while the CRD is terminating: 405 with its message; updates go on. */
function refuseCreates(qualified: QualifiedResource): NonNullable<Strategy['authorizeWrite']> {
  return async (_object, old) => {
    if (old !== undefined) return undefined;
    const status = failure('MethodNotAllowed', 'create not allowed while custom resource definition is terminating', {
      ...(qualified.group ? { group: qualified.group } : {}), kind: qualified.resource,
    });
    return status;
  };
}

/** The strategy of one CRD version's objects. */
export function customResourceStrategy(options: CustomResourceStrategyOptions): Strategy {
  const validate = (object: KubeObject, old?: KubeObject): FieldError[] => validateCustomObject(object, options, old);
  const validateSteps = (object: KubeObject, old?: KubeObject): Steps<FieldError[]> => validateCustomObjectSteps(object, options, old);
  const strategy = defineStrategy({
    hasStatus: options.hasStatus,
    tracksGeneration: true,
    // Without a status subresource a status change is a change like any other (kube compares all but metadata).
    generationCountsStatus: !options.hasStatus,
    // The structural schema's defaults: kube's CRD handler defaults what it decodes.
    defaults: (object) => applyDefaults(options.schema, object),
    validate: (object) => validate(object),
    validateUpdate: (object, old) => validate(object, old),
    ...(options.hasStatus
      ? {
        status: {
          prepareForUpdate: genericStatusStrategy.prepareForUpdate,
          validateUpdate: (object: KubeObject, old: KubeObject) => validate(object, old),
          validateUpdateSteps: (object: KubeObject, old: KubeObject) => validateSteps(object, old),
        },
      }
      : {}),
  });
  const stepped: Strategy = {
    ...strategy,
    defaultsSteps: (object) => applyDefaultsSteps(options.schema, object),
    validateSteps: (object) => validateSteps(object),
    validateUpdateSteps: (object, old) => validateSteps(object, old),
  };
  return options.terminating === true ? { ...stepped, authorizeWrite: refuseCreates(options.qualified ?? { group: '', resource: '' }) } : stepped;
}
