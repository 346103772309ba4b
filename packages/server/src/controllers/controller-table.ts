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
import { startServiceAccountController } from './serviceaccount/service-account-controller.js';
import { startTokenController } from './serviceaccount-token/token-controller.js';
import { startRootCaPublisher } from './root-ca-cert-publisher/root-ca-publisher.js';
import { startCsrSigningController } from './csrsigning/csr-signing-controller.js';
import { startCsrApprovingController } from './csrapproving/csr-approving-controller.js';
import { startCsrCleaner } from './csrcleaner/csr-cleaner.js';
import { startBootstrapSigner } from './bootstrapsigner/bootstrap-signer.js';
import { startTokenCleaner } from './tokencleaner/token-cleaner.js';
import { startResourceQuotaController } from './resource-quota-controller.js';
import { startPvcProtectionController, startPvProtectionController } from './volume-protection-controllers.js';

/** One controller of the table. */
export interface ControllerEntry extends ControllerSwitch {
  /**
   * Why the controller cannot run with this context (a setting it needs is missing), or undefined: such a
   * controller is skipped with that reason logged, as kube-controller-manager skips a signer without a CA.
   */
  skipReason?(context: ControllerContext): string | undefined;
  start(context: ControllerContext): Controller;
}

/** Every controller, keyed by its kube-controller-manager name. */
export const controllerTable = {
  namespace: { onByDefault: true, start: (c) => startNamespaceController(c) },
  garbagecollector: { onByDefault: true, start: (c) => startGarbageCollector(c.registry, c) },
  'clusterrole-aggregation': { onByDefault: true, start: (c) => startClusterRoleAggregation(c.registry, c.names, c) },
  serviceaccount: { onByDefault: true, start: startServiceAccountController },
  'serviceaccount-token': {
    onByDefault: true,
    skipReason: (c) => (c.config?.legacyTokenIssuer === undefined ? 'no service account private key' : undefined),
    start: startTokenController,
  },
  'root-ca-cert-publisher': {
    onByDefault: true,
    skipReason: (c) => (c.config?.rootCaPem === undefined ? 'no root CA' : undefined),
    start: startRootCaPublisher,
  },
  csrsigning: {
    onByDefault: true,
    skipReason: (c) => (c.config?.csrSigning === undefined ? 'no signing CA' : undefined),
    start: startCsrSigningController,
  },
  csrapproving: {
    onByDefault: true,
    skipReason: (c) => (c.config?.authorizer === undefined ? 'no authorizer' : undefined),
    start: startCsrApprovingController,
  },
  csrcleaner: { onByDefault: true, start: startCsrCleaner },
  bootstrapsigner: { onByDefault: false, start: startBootstrapSigner },
  tokencleaner: { onByDefault: false, start: startTokenCleaner },
  resourcequota: { onByDefault: true, start: (c) => startResourceQuotaController(c) },
  'pvc-protection': { onByDefault: true, start: (c) => startPvcProtectionController(c) },
  'pv-protection': { onByDefault: true, start: (c) => startPvProtectionController(c) },
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
