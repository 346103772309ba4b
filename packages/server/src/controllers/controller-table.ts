/**
 * The controllers this server runs, by kube-controller-manager's names (the names `--controllers` takes), each with
 * whether `*` enables it and how it starts. Adding a controller is adding its line here.
 */
import type { Result } from '@svc-apiserver/api';
import { startClusterRoleAggregation } from './cluster-role-aggregation.js';
import { startGarbageCollector } from './garbage-collector.js';
import type { Controller, ControllerContext } from './kit/controller.js';
import { enabledControllers, type ControllerSwitch } from './kit/enabled-controllers.js';
import { startNamespaceController } from './namespace-controller.js';

/** One controller of the table. */
export interface ControllerEntry extends ControllerSwitch {
  start(context: ControllerContext): Controller;
}

/** Every controller, keyed by its kube-controller-manager name. */
export const controllerTable = {
  namespace: { onByDefault: true, start: (c) => startNamespaceController(c) },
  garbagecollector: { onByDefault: true, start: (c) => startGarbageCollector(c.registry, c) },
  'clusterrole-aggregation': { onByDefault: true, start: (c) => startClusterRoleAggregation(c.registry, c.names, c) },
} satisfies Record<string, ControllerEntry>;

/** A name `--controllers` accepts. */
export type ControllerName = keyof typeof controllerTable;

/** The controllers `*` enables. */
export const defaultControllers: readonly ControllerName[] =
  (Object.keys(controllerTable) as ControllerName[]).filter((name) => controllerTable[name].onByDefault);

/** The controllers a `--controllers` value enables, or why it is refused (an unknown name). */
export function selectControllers(flag: readonly string[]): Result<ControllerName[], string> {
  return enabledControllers(controllerTable, flag);
}
