/**
 * The generic strategy and the factory every resource's strategy is built with (kube's per-type strategies share
 * this shape: PrepareForCreate clears status, PrepareForUpdate keeps status, the status strategy keeps the rest).
 */
import type { FieldError, KubeObject } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { NameRule } from '../meta/name-rules.js';
import type { Strategy, SubresourceStrategy } from './strategy.js';

/** What a resource's strategy sets; everything is optional and defaults to the generic behaviour. */
export interface StrategyOptions {
  /** Default `dns1123Subdomain` (kube's NameIsDNSSubdomain, the most common rule). */
  readonly nameRule?: NameRule;
  /** The name rule where it depends on the object (Strategy.nameRuleOf). */
  readonly nameRuleOf?: (object: KubeObject) => NameRule;
  /** The resource has a `status` subresource: main writes keep status, `/status` writes keep the rest. */
  readonly hasStatus?: boolean;
  /** With `hasStatus`: a create drops the status a client sent (default true). */
  readonly clearStatusOnCreate?: boolean;
  /**
   * The status a create starts with instead of none: what kube's JSON holds after PrepareForCreate reset the status
   * struct (a struct is never omitted, and its fields without omitempty show their zero values).
   */
  readonly initialStatus?: () => Record<string, unknown>;
  readonly tracksGeneration?: boolean;
  readonly generationCountsStatus?: boolean;
  readonly returnDeletedObject?: boolean;
  readonly allowCreateOnUpdate?: boolean;
  readonly allowUnconditionalUpdate?: boolean;
  /** The kind's defaulting (Strategy.defaults). */
  readonly defaults?: (object: KubeObject) => void;
  readonly prepareForCreate?: (object: KubeObject, user?: UserInfo) => void;
  readonly prepareForUpdate?: (object: KubeObject, old: KubeObject) => void;
  readonly validate?: (object: KubeObject) => FieldError[];
  readonly validateUpdate?: (object: KubeObject, old: KubeObject) => FieldError[];
  readonly warnings?: (object: KubeObject, old?: KubeObject) => string[];
  readonly selectableFields?: (object: KubeObject) => Record<string, string>;
  readonly holdOnDelete?: (object: KubeObject) => boolean;
  /** Replaces the generic status strategy. */
  readonly status?: SubresourceStrategy;
  readonly finalize?: SubresourceStrategy;
  /** Strategies of further subresources written through update and patch, by name. */
  readonly subresources?: Readonly<Record<string, SubresourceStrategy>>;
}

/** Copies `field` from `old` into `object` (or removes it when `old` lacks it). */
export function keepField(object: KubeObject, old: KubeObject, field: string): void {
  if (old[field] === undefined) delete object[field];
  else object[field] = structuredClone(old[field]);
}

/**
 * The generic status strategy: a `/status` write changes `status` and object metadata only; every other top-level
 * field keeps its stored value.
 */
export const genericStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    for (const field of new Set([...Object.keys(object), ...Object.keys(old)])) {
      if (field === 'status' || field === 'metadata' || field === 'kind' || field === 'apiVersion') continue;
      keepField(object, old, field);
    }
  },
  validateUpdate: () => [],
};

/** Builds a strategy from options. */
export function defineStrategy(options: StrategyOptions = {}): Strategy {
  const hasStatus = options.hasStatus ?? false;
  const clearStatus = hasStatus && (options.clearStatusOnCreate ?? true);
  const strategy: Strategy = {
    allowCreateOnUpdate: options.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: options.allowUnconditionalUpdate ?? true,
    nameRule: options.nameRule ?? 'dns1123Subdomain',
    tracksGeneration: options.tracksGeneration ?? false,
    generationCountsStatus: options.generationCountsStatus ?? false,
    returnDeletedObject: options.returnDeletedObject ?? false,
    prepareForCreate(object, user) {
      if (clearStatus) {
        if (options.initialStatus) object.status = options.initialStatus();
        else delete object.status;
      }
      options.prepareForCreate?.(object, user);
    },
    prepareForUpdate(object, old) {
      if (hasStatus) keepField(object, old, 'status');
      options.prepareForUpdate?.(object, old);
    },
    validate: (object) => options.validate?.(object) ?? [],
    validateUpdate: (object, old) => options.validateUpdate?.(object, old) ?? [],
    warnings: (object, old) => options.warnings?.(object, old) ?? [],
  };
  const extra: { -readonly [K in 'defaults' | 'status' | 'finalize' | 'selectableFields' | 'holdOnDelete' | 'subresources' | 'nameRuleOf']?: Strategy[K] } = {};
  if (options.defaults) extra.defaults = options.defaults;
  if (options.nameRuleOf) extra.nameRuleOf = options.nameRuleOf;
  if (options.subresources) extra.subresources = options.subresources;
  if (options.selectableFields) extra.selectableFields = options.selectableFields;
  if (hasStatus) extra.status = options.status ?? genericStatusStrategy;
  if (options.finalize) extra.finalize = options.finalize;
  if (options.holdOnDelete) extra.holdOnDelete = options.holdOnDelete;
  return { ...strategy, ...extra };
}

/** Reads a nested string field (`spec.nodeName`) for field selectors; `''` when absent. */
export function stringAt(object: KubeObject, path: string): string {
  let cur: unknown = object;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return '';
}

/** A field-selector field set reading the given paths. */
export function fieldsAt(...paths: string[]): (object: KubeObject) => Record<string, string> {
  return (object) => Object.fromEntries(paths.map((p) => [p, stringAt(object, p)]));
}
