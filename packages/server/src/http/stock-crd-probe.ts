/**
 * The CustomResourceDefinition list stock kubectl probes in the svc flavour. Before validating a kind with no PATCH
 * operation in the published OpenAPI (the reviews, TokenReview, Binding), kubectl's field-validation verifier
 * (cli-runtime's QueryParamVerifier, every version from 1.27 on) asks whether the kind is a custom resource by
 * listing CRDs through a fixed path in the Kubernetes group name; a 404 there fails client-side validation with
 * "failed to check CRD". In the svc flavour that one list is answered as the flavour's own CRD list (same
 * authorization, same objects), so kubectl finds no such CRD and validates the kind against the published schema,
 * as it does against kube-apiserver and in the k8s flavour.
 */
import { namesFor, type Names } from '@svc-apiserver/api';
import type { RequestInfo } from '../request/request-info.js';

const stock = namesFor('k8s');

/** The request info a CRD list under the Kubernetes group name stands for in `names`' flavour (itself otherwise). */
export function stockCrdProbe(info: RequestInfo, names: Names): RequestInfo {
  if (names.flavour === stock.flavour || !info.isResourceRequest || info.verb !== 'list') return info;
  if (info.apiGroup !== stock.group('apiextensions') || info.resource !== 'customresourcedefinitions' || info.subresource !== '') return info;
  return { ...info, apiGroup: names.group('apiextensions') };
}
