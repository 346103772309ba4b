/**
 * apps/v1 DaemonSets (pkg/registry/apps/daemonset, ValidateDaemonSetSpec and its update, apps/v1 defaults and
 * conversion, 1.27): `updateStrategy` RollingUpdate with `maxUnavailable` 1 and `maxSurge` 0, `revisionHistoryLimit`
 * 10; the update strategy's rules (RollingUpdate needs `rollingUpdate`, exactly one of `maxSurge` and
 * `maxUnavailable` non-zero, neither above 100%); the template generation kept in the
 * `deprecated.daemonset.template.generation` annotation (1 on create, bumped when the template changes, never
 * decremented), and the workload rules (workload.ts).
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import type { Strategy } from '../strategy.js';
import { obj, type Json } from './field-checks.js';
import { intOrPercentValue, notMoreThan100Percent, positiveIntOrPercent } from './deployments.js';
import { child, sameJson, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** The annotation apps/v1 keeps the internal `spec.templateGeneration` in (appsv1.DeprecatedTemplateGeneration). */
const templateGenerationKey = 'deprecated.daemonset.template.generation';

/** ValidateDaemonSetUpdateStrategy. */
function updateStrategyErrors(strategy: Json): FieldError[] {
  const path = 'spec.updateStrategy';
  switch (strategy['type']) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const rolling = strategy['rollingUpdate'];
      if (rolling === undefined || rolling === null) return [fieldError.required(`${path}.rollingUpdate`)];
      const r = obj(rolling);
      const at = `${path}.rollingUpdate`;
      const errs = [
        ...positiveIntOrPercent(r['maxUnavailable'] ?? 0, `${at}.maxUnavailable`), ...positiveIntOrPercent(r['maxSurge'] ?? 0, `${at}.maxSurge`),
        ...notMoreThan100Percent(r['maxUnavailable'], `${at}.maxUnavailable`), ...notMoreThan100Percent(r['maxSurge'], `${at}.maxSurge`),
      ];
      const unavailable = intOrPercentValue(r['maxUnavailable']) !== 0;
      const surge = intOrPercentValue(r['maxSurge']) !== 0;
      if (unavailable && surge) errs.push(fieldError.invalid(`${at}.maxSurge`, r['maxSurge'], 'may not be set when maxUnavailable is non-zero'));
      else if (!unavailable && !surge) errs.push(fieldError.required(`${at}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [fieldError.notSupported(path, strategy, ['RollingUpdate', 'OnDelete'])];
  }
}

/** The template generation an object carries (0 without the annotation, as the conversion leaves it). */
function templateGeneration(object: KubeObject): number {
  const value = object.metadata?.annotations?.[templateGenerationKey];
  return value !== undefined && /^-?\d+$/.test(value) ? Number(value) : 0;
}

function setTemplateGeneration(object: KubeObject, generation: number): void {
  const meta = (object.metadata ??= {});
  meta.annotations = { ...(meta.annotations ?? {}), [templateGenerationKey]: String(generation) };
}

/** ValidateDaemonSetSpecUpdate: the template generation moves with the template and never back. */
function templateGenerationErrors(object: KubeObject, old: KubeObject): FieldError[] {
  const now = templateGeneration(object);
  const before = templateGeneration(old);
  const path = 'spec.templateGeneration';
  const errs: FieldError[] = [];
  if (now < before) errs.push(fieldError.invalid(path, now, 'must not be decremented'));
  const templateUpdated = !sameJson(obj(object['spec'])['template'], obj(old['spec'])['template']);
  if (now === before && templateUpdated) errs.push(fieldError.invalid(path, now, 'must be incremented upon template update'));
  else if (now > before && !templateUpdated) errs.push(fieldError.invalid(path, now, 'must not be incremented without template update'));
  return errs;
}

/** The daemonset strategy of a flavour under the server's gates. */
export function daemonSetStrategy(names: Names, gates?: FeatureGates): Strategy {
  return workloadStrategy({
    kind: 'DaemonSet',
    names,
    ...(gates === undefined ? {} : { gates }),
    initialStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
    defaults(spec) {
      const update = child(spec, 'updateStrategy');
      setDefault(update, 'type', 'RollingUpdate');
      if (update['type'] === 'RollingUpdate') {
        const rolling = child(update, 'rollingUpdate');
        setDefault(rolling, 'maxUnavailable', 1);
        setDefault(rolling, 'maxSurge', 0);
      }
      setDefault(spec, 'revisionHistoryLimit', 10);
    },
    prepareCreate(object) {
      if (templateGeneration(object) < 1) setTemplateGeneration(object, 1);
    },
    prepareUpdate(object, old) {
      // PrepareForUpdate: a changed template takes the next template generation.
      if (!sameJson(obj(object['spec'])['template'], obj(old['spec'])['template'])) setTemplateGeneration(object, templateGeneration(old) + 1);
    },
    validate(object) {
      const spec = obj(object['spec']);
      return [
        ...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds'), ...updateStrategyErrors(obj(spec['updateStrategy'])),
        ...nonNegative(spec, 'revisionHistoryLimit', 'spec.revisionHistoryLimit'),
      ];
    },
    validateUpdate: templateGenerationErrors,
  });
}
