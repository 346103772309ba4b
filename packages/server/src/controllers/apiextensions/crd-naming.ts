/**
 * The CRD naming controller (apiextensions-apiserver's NamingConditionController): a CRD's requested names are
 * accepted unless another CRD of its group already accepted them, or a built-in resource of the group has them;
 * `status.acceptedNames` gets what is accepted and the NamesAccepted condition says True (NoConflicts) or False
 * with kube's reason (PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict) and
 * `"<name>" is already in use`. Established starts False (Installing once the names are accepted). A change of
 * one CRD's names queues the others of its group, which may now get names it let go. Writes are remembered until
 * the informer shows them (kube's mutation cache), so two CRDs in a row never accept the same name.
 */
import {
  acceptedNamesOf, conditionOf, sameConditions, specOf, withCondition, type CrdCondition, type CrdNames, type CustomResourceDefinition,
} from '../../apiextensions/crd.js';
import { nowTimestamp } from '../../registry/operations/prepare.js';
import type { Registry } from '../../registry/registry.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue } from '../kit/work-queue.js';
import { crdResource, updateCrdStatus } from './crd-status.js';

const sameNames = (a: CrdNames, b: CrdNames): boolean => JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));
function normalized(n: CrdNames): unknown[] {
  return [n.plural ?? '', n.singular ?? '', n.kind ?? '', n.listKind ?? '', n.shortNames ?? [], n.categories ?? []];
}

/** The names in use in a group: resource names (plural, singular, short names) and kinds (kind, list kind). */
interface UsedNames {
  readonly resources: Set<string>;
  readonly kinds: Set<string>;
}

/** kube's equalToAcceptedOrFresh. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

/** The accepted names and the NamesAccepted and Established conditions a CRD should have (calculateNamesAndConditions). */
export function calculateNames(crd: CustomResourceDefinition, used: UsedNames): { names: CrdNames; namesAccepted: CrdCondition; established: CrdCondition } {
  const requested = specOf(crd).names ?? {};
  const accepted = acceptedNamesOf(crd);
  const next: { -readonly [K in keyof CrdNames]: CrdNames[K] } = { ...accepted };
  let namesAccepted: CrdCondition = { type: 'NamesAccepted', status: 'Unknown' };
  const fail = (reason: string, message: string): void => {
    namesAccepted = { type: 'NamesAccepted', status: 'False', reason, message };
  };
  const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', reason: string, set: ReadonlySet<string>): void => {
    const bad = conflict(requested[field] ?? '', accepted[field] ?? '', set);
    if (bad !== undefined) fail(reason, bad);
    else if (requested[field] !== undefined) next[field] = requested[field];
  };
  check('plural', 'PluralConflict', used.resources);
  check('singular', 'SingularConflict', used.resources);
  const requestedShort = requested.shortNames ?? [];
  if (JSON.stringify(requestedShort) !== JSON.stringify(accepted.shortNames ?? [])) {
    const mine = new Set(accepted.shortNames ?? []);
    const errors = requestedShort.filter((s) => !mine.has(s)).map((s) => conflict(s, '', used.resources)).filter((e) => e !== undefined);
    if (errors.length > 0) fail('ShortNamesConflict', errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
    else if (requested.shortNames !== undefined) next.shortNames = requested.shortNames;
    else delete next.shortNames;
  }
  check('kind', 'KindConflict', used.kinds);
  check('listKind', 'ListKindConflict', used.kinds);
  if (requested.categories !== undefined) next.categories = requested.categories;
  else delete next.categories;
  if (namesAccepted.status === 'Unknown') namesAccepted = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };

  let established: CrdCondition = conditionOf(crd, 'Established')
    ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { names: next, namesAccepted, established };
}

/** Starts the naming controller. */
export function startCrdNaming(context: ControllerContext): Controller {
  const registry: Registry = context.registry;
  const def = crdResource(registry);
  return runController('crd-naming', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const queue = createWorkQueue();
    /** Status writes not yet seen by the informer, by CRD name (kube's crdMutationCache). */
    const written = new Map<string, CustomResourceDefinition>();
    const latest = (crd: CustomResourceDefinition): CustomResourceDefinition => {
      const mine = written.get(crd.metadata?.name ?? '');
      if (mine === undefined) return crd;
      return Number(mine.metadata?.resourceVersion ?? 0) > Number(crd.metadata?.resourceVersion ?? 0) ? mine : crd;
    };
    const usedNames = (group: string): UsedNames => {
      const resources = new Set<string>();
      const kinds = new Set<string>();
      for (const d of registry.all()) {
        if (d.custom !== undefined || d.group !== group) continue;
        for (const n of [d.resource, d.singularName, ...d.shortNames]) if (n) resources.add(n);
        for (const n of [d.kind, d.listKind]) if (n) kinds.add(n);
      }
      for (const o of informer.list()) {
        const crd = latest(o as CustomResourceDefinition);
        if (specOf(crd).group !== group) continue;
        const a = acceptedNamesOf(crd);
        // The CRD's own accepted names count too: requesting what it already has is no conflict.
        for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
        for (const n of [a.kind, a.listKind]) if (n) kinds.add(n);
      }
      return { resources, kinds };
    };
    const requeueGroup = (group: string, except: string): void => {
      for (const o of informer.list()) {
        const crd = o as CustomResourceDefinition;
        if (specOf(crd).group === group && crd.metadata?.name !== except) queue.add(crd.metadata?.name ?? '');
      }
    };

    const sync = async (name: string): Promise<SyncResult> => {
      const cached = informer.get('', name) as CustomResourceDefinition | undefined;
      if (cached === undefined) {
        written.delete(name);
        return done;
      }
      const crd = latest(cached);
      const group = specOf(crd).group ?? '';
      if (sameNames(specOf(crd).names ?? {}, acceptedNamesOf(crd)) && conditionOf(crd, 'NamesAccepted')?.status === 'True') return done;
      const { names, namesAccepted, established } = calculateNames(crd, usedNames(group));
      const old = conditionOf(crd, 'NamesAccepted');
      if (sameNames(acceptedNamesOf(crd), names) && old !== undefined && sameConditions([old], [namesAccepted])) return done;
      const now = nowTimestamp();
      const next = structuredClone(crd);
      next.status = {
        ...(next.status ?? {}),
        acceptedNames: names,
        conditions: withCondition(withCondition(next.status?.conditions, namesAccepted, now), established, now),
      };
      const result = await updateCrdStatus(registry, def, next, crd);
      if (!result.ok) {
        written.delete(name);
        return result.error.code === 404 ? done : retry(`updating the status of ${name}: ${result.error.message ?? 'failed'}`);
      }
      written.set(name, result.value as CustomResourceDefinition);
      requeueGroup(group, name);
      return done;
    };

    return {
      handlers: [{
        informer,
        listener(change, object) {
          const crd = object as CustomResourceDefinition;
          const name = crd.metadata?.name ?? '';
          if (change === 'DELETED') requeueGroup(specOf(crd).group ?? '', name);
          queue.add(name);
        },
      }],
      loops: [{ queue, sync }],
    };
  });
}
