/**
 * Defaulting from a structural schema (apiextensions-apiserver's structural defaulting): a missing field whose
 * schema has a `default` gets a copy of it, and so does a `null` in a field that is not `nullable`; a `null` in a
 * non-nullable field without a default is dropped (kube's PruneNonNullableNullsWithoutDefaults). Defaults are
 * applied top-down, so a defaulted object gets the defaults of its own fields too. Applied when a body is decoded,
 * on every write and when objects are read from storage, as kube applies them.
 */
import { additionalPropertiesOf, isRecord, itemsOf, maxWalkDepth, propertiesOf, type JsonSchemaProps } from './json-schema-props.js';
import { entriesPerStep, runSteps, type Steps } from '../../limits/turn-budget.js';

/** Applies the schema's defaults to `value` in place. */
export function applyDefaults(schema: JsonSchemaProps, value: unknown): void {
  runSteps(applyDefaultsSteps(schema, value));
}

/** {@link applyDefaults} in steps (limits/turn-budget.ts): a long list or a wide map is defaulted across turns. */
export function applyDefaultsSteps(schema: JsonSchemaProps, value: unknown): Steps<void> {
  return walk(schema, value, 0);
}

function* walk(schema: JsonSchemaProps, value: unknown, depth: number): Steps<void> {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items === undefined) return;
    for (let i = 0; i < value.length; i++) {
      if (i % entriesPerStep === entriesPerStep - 1) yield;
      yield* walk(items, value[i], depth + 1);
    }
    return;
  }
  if (!isRecord(value)) return;
  const props = propertiesOf(schema);
  if (props !== undefined) {
    for (const [key, sub] of props) {
      const current = value[key];
      const hasDefault = Object.hasOwn(sub, 'default') && sub['default'] !== undefined;
      if (current === undefined || (current === null && sub['nullable'] !== true)) {
        if (hasDefault) value[key] = structuredClone(sub['default']);
        else if (current === null) delete value[key];
      }
    }
  }
  const additional = additionalPropertiesOf(schema);
  // Only children with a schema of their own get defaults or lose nulls.
  if (props === undefined && additional === undefined) return;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    const key = keys[i]!;
    const sub = props?.get(key) ?? additional;
    if (sub === undefined) continue;
    if (value[key] === null && props?.get(key) === undefined && sub['nullable'] !== true) {
      delete value[key];
      continue;
    }
    yield* walk(sub, value[key], depth + 1);
  }
}
