/**
 * The csrapproving controller (pkg/controller/certificates/approver sarApprover): pending node client requests
 * (signer `<api-client-node>` with the node client subject and usages) are approved when their requester may
 * `create` `certificatesigningrequests/selfnodeclient` (a renewal: the requester is the node the certificate names)
 * or `certificatesigningrequests/nodeclient` (a bootstrapper). The authorizer is asked about the requester recorded
 * in the request (`spec.username`, `groups`, `uid`, `extra`), as kube's SubjectAccessReview does. A recognized
 * request the authorizer does not allow is looked at again later with back-off, so a permission granted afterwards
 * still approves it.
 */
import type { Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import type { RequestInfo } from '../../request/request-info.js';
import { parseCertificateRequest, type CertificateRequest } from '../../pki/csr.js';
import type { Informer } from '../../registry/informer.js';
import { nowTimestamp } from '../../registry/operations/prepare.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import {
  approvalState, bytesField, csrConditionTypes, issuedCertificate, signerNameOf, usagesOf, type CsrObject,
} from '../../pki/csr-object.js';
import { nodeClientViolation } from '../csrsigning/signer-rules.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { required } from '../kit/controller-config.js';
import { createWorkQueue } from '../kit/work-queue.js';

/** One kind of request the approver recognizes, the permission it needs and the message of its approval. */
interface Recognizer {
  recognize(csr: CsrObject, req: CertificateRequest): boolean;
  readonly subresource: string;
  readonly message: string;
}


const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The requester as the request recorded it. */
function requesterOf(csr: CsrObject): UserInfo {
  const spec = csr.spec ?? {};
  const extra: Record<string, string[]> = {};
  if (typeof spec.extra === 'object' && spec.extra !== null) {
    for (const [k, v] of Object.entries(spec.extra as Record<string, unknown>)) extra[k] = strings(v);
  }
  return {
    username: typeof spec.username === 'string' ? spec.username : '',
    ...(typeof spec.uid === 'string' && spec.uid !== '' ? { uid: spec.uid } : {}),
    groups: strings(spec.groups),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** The sync of one request, over the CSR informer. */
export function csrApprovingSync(registry: Registry, names: Names, def: ResourceDef, requests: Informer, authorizer: Authorizer): (name: string) => Promise<SyncResult> {
  const group = names.group('certificates');
  const nodeClientSigner = names.name('signerApiClientNode');
  const isNodeClient = (csr: CsrObject, req: CertificateRequest): boolean =>
    signerNameOf(csr) === nodeClientSigner && nodeClientViolation(req, usagesOf(csr)) === undefined;
  // kube's order: a renewal by the node itself first.
  const recognizers: Recognizer[] = [
    {
      recognize: (csr, req) => csr.spec?.username === req.commonName && isNodeClient(csr, req),
      subresource: 'selfnodeclient',
      message: 'Auto approving self node client certificate after SubjectAccessReview.',
    },
    { recognize: isNodeClient, subresource: 'nodeclient', message: 'Auto approving node client certificate after SubjectAccessReview.' },
  ];
  const allowed = async (csr: CsrObject, subresource: string): Promise<boolean> => {
    const info: RequestInfo = {
      isResourceRequest: true, path: '', verb: 'create', apiPrefix: 'apis', apiGroup: group, apiVersion: '*', namespace: '',
      resource: 'certificatesigningrequests', subresource, name: '', parts: [],
    };
    return (await authorizer.authorize({ user: requesterOf(csr), info })).decision === 'allow';
  };
  return async (name) => {
    const csr = requests.get('', name) as CsrObject | undefined;
    if (csr === undefined || issuedCertificate(csr).length > 0) return done;
    const { approved, denied } = approvalState(csr);
    if (approved || denied) return done;
    const request = bytesField(csr.spec?.request);
    const parsed = request === undefined ? undefined : parseCertificateRequest(request);
    if (parsed === undefined || !parsed.ok) return done;
    const tried: string[] = [];
    for (const r of recognizers) {
      if (!r.recognize(csr, parsed.value)) continue;
      tried.push(r.subresource);
      if (!(await allowed(csr, r.subresource))) continue;
      const now = nowTimestamp();
      const next = structuredClone(csr);
      (next.status ??= {}).conditions = [...(next.status.conditions ?? []), {
        type: csrConditionTypes.approved, status: 'True', reason: 'AutoApproved', message: r.message, lastUpdateTime: now, lastTransitionTime: now,
      }];
      const updated = await updateObject(registry, def, 'approval', next, csr, loopbackContext(registry.names, 'controller-manager'));
      if (!updated.ok && updated.error.code !== 404 && !updated.conflict) return retry(`approving ${name}: ${updated.error.message ?? 'failed'}`);
      return done;
    }
    if (tried.length > 0) return retry(`recognized ${name} as ${tried.join(', ')} but the requester may not create it`);
    return done;
  };
}

/** Starts the controller. */
export function startCsrApprovingController(context: ControllerContext): Controller {
  const { registry, names } = context;
  const authorizer = required(context.config?.authorizer, 'csrapproving', 'an authorizer');
  const def = registry.lookup(names.group('certificates'), 'v1', 'certificatesigningrequests');
  return runController('csrapproving', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const requests = informers.informerFor(def);
    const queue = createWorkQueue();
    return {
      handlers: [{ informer: requests, listener: (change, csr) => { if (change !== 'DELETED') queue.add(csr.metadata?.name ?? ''); } }],
      loops: [{ queue, sync: csrApprovingSync(registry, names, def, requests, authorizer), workers: 5 }],
    };
  });
}
