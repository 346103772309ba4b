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
