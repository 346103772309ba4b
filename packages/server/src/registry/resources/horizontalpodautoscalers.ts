/**
 * autoscaling HorizontalPodAutoscalers (pkg/registry/autoscaling/horizontalpodautoscaler of 1.27, with the v1 and v2
 * defaults): a status subresource whose status a create resets and an update keeps; no `metadata.generation` (1.27's
 * strategy sets none); ContainerResource metrics dropped while HPAContainerMetrics is off unless stored; `minReplicas`
 * may be 0 under HPAScaleToZero or once stored as 0. Both versions are validated on the v2 form with kube's field
 * paths: v1 objects are converted first (their round-trip annotations included), before the v2 defaults, as kube
 * validates the internal object its v1 decoding made. In v1, the status annotations (`current-metrics`,
 * `conditions`) are status: a create drops them, an update keeps the stored ones, and `/status` keeps the spec's.
 */
import type { FieldError, KubeObject, Names } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { hpaRoundTripAnnotations, hpaV1ToV2 } from '../conversion/hpa-v1.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { isSet, num, obj } from './field-checks.js';
import { defaultHpaSpec, dropContainerMetrics, hpaSpecErrors, hpaStatusErrors, type HpaValidationOptions } from './hpa-validation.js';
import { setDefault, specOf } from './object-fields.js';

/** validation options of the 1.27 strategy: the scale-to-zero bound, and the container metrics gate's wording. */
function options(old: KubeObject | undefined, gates: FeatureGates): HpaValidationOptions {
  const oldMin = old === undefined ? undefined : obj(old['spec'])['minReplicas'];
  const zero = gates.HPAScaleToZero || (isSet(oldMin) && num(oldMin) === 0);
  return { minReplicasLowerBound: zero ? 0 : 1, containerMetrics: gates.HPAContainerMetrics };
}

/** The strategy of one version, given how that version's objects look as v2 (`asV2`) and its status reset. */
function hpaStrategy(
  gates: FeatureGates, asV2: (object: KubeObject) => KubeObject, initialStatus: () => Record<string, unknown>,
  defaults: (object: KubeObject) => void,
  prepare: { create(object: KubeObject): void; update(object: KubeObject, old: KubeObject): void }, status: SubresourceStrategy,
): Strategy {
  const validate = (object: KubeObject, old?: KubeObject): FieldError[] =>
    hpaSpecErrors(obj(asV2(object)['spec']), options(old === undefined ? undefined : asV2(old), gates));
  return defineStrategy({
    hasStatus: true, initialStatus, defaults,
    prepareForCreate: prepare.create, prepareForUpdate: prepare.update,
    validate: (object) => validate(object),
    validateUpdate: (object, old) => validate(object, old),
    status,
  });
}

/** The v2 status strategy: the spec kept, replica counts not negative. */
const v2Status: SubresourceStrategy = {
  prepareForUpdate: genericStatusStrategy.prepareForUpdate,
  validateUpdate: (object) => hpaStatusErrors(obj(object['status'])),
};

/** The autoscaling/v2 strategy. */
export function hpaV2Strategy(_names?: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  return hpaStrategy(gates, (object) => object, () => ({ desiredReplicas: 0 }), (object) => defaultHpaSpec(specOf(object)), {
    create: (object) => dropContainerMetrics(specOf(object), undefined, gates),
    update: (object, old) => dropContainerMetrics(specOf(object), obj(old['spec']), gates),
  }, v2Status);
}

/** Copies the annotations `keys` from `old` to `object` (present or absent as there). */
function keepAnnotations(object: KubeObject, old: KubeObject | undefined, keys: readonly string[]): void {
  const meta = (object.metadata ??= {});
  const annotations = { ...(meta.annotations ?? {}) };
  for (const key of keys) {
    const before = old?.metadata?.annotations?.[key];
    if (before === undefined) delete annotations[key];
    else annotations[key] = before;
  }
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
}

/** The autoscaling/v1 strategy of a flavour (its round-trip annotations carry the flavour's domain). */
export function hpaV1Strategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const keys = hpaRoundTripAnnotations(names);
  const statusKeys = [keys.currentMetrics, keys.conditions];
  const specKeys = [keys.metrics, keys.behavior];
  const status: SubresourceStrategy = {
    prepareForUpdate(object, old) {
      genericStatusStrategy.prepareForUpdate(object, old);
      keepAnnotations(object, old, specKeys);
    },
    validateUpdate: (object) => hpaStatusErrors(obj(hpaV1ToV2(object, names)['status'])),
  };
  return hpaStrategy(gates, (object) => hpaV1ToV2(object, names), () => ({ currentReplicas: 0, desiredReplicas: 0 }), (object) => setDefault(specOf(object), 'minReplicas', 1), {
    create: (object) => keepAnnotations(object, undefined, statusKeys),
    update: (object, old) => keepAnnotations(object, old, statusKeys),
  }, status);
}
