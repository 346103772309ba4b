/**
 * The controllers kube-apiserver runs itself rather than kube-controller-manager: apiextensions-apiserver's CRD
 * naming, establishing and finalizing controllers (and, with aggregation, kube-aggregator's). They are not named by
 * `--controllers` and run on every replica, without leader election, as in kube-apiserver, where every replica
 * runs them; their writes are compare-and-swap status updates, so replicas racing lose nothing.
 */
import type { Controller, ControllerContext } from './kit/controller.js';
import { startCrdEstablishing } from './apiextensions/crd-establishing.js';
import { startCrdFinalizer } from './apiextensions/crd-finalizer.js';
import { startCrdNaming } from './apiextensions/crd-naming.js';

/** A controller kube-apiserver runs, by the name of its work queue. */
export type ApiServerControllerStart = (context: ControllerContext) => Controller;

/** The always-on controllers of the API server. */
export const apiServerControllers: readonly ApiServerControllerStart[] = [startCrdNaming, startCrdEstablishing, startCrdFinalizer];

/**
 * The post-start hook kube-apiserver reports each of its own controllers under (its readyz, livez and healthz
 * names): the CRD controllers start in one hook, the APIService controllers each in their own.
 */
export const apiServerControllerHooks: Readonly<Record<string, string>> = {
  'crd-naming': 'poststarthook/start-apiextensions-controllers',
  'crd-establishing': 'poststarthook/start-apiextensions-controllers',
  'crd-finalizer': 'poststarthook/start-apiextensions-controllers',
  'apiservice-autoregistration': 'poststarthook/kube-apiserver-autoregistration',
  'apiservice-availability': 'poststarthook/apiservice-status-available-controller',
};
