/**
 * The csrsigning controller (pkg/controller/certificates/signer): the built-in signers issue certificates for
 * approved requests of their signer name. A request that is not approved, is denied, failed or already has a
 * certificate is left alone. A request that breaks its signer's rules gets a `Failed` condition (reason
 * `SignerValidationFailure`, kube's message) instead. The lifetime is `--cluster-signing-duration`, or
 * `spec.expirationSeconds` when shorter (never under 10 minutes), cut at the CA's end.
 */
import type { Names } from '@svc-apiserver/api';
import { parseCertificateRequest } from '../../pki/csr.js';
import { signCertificateRequest } from '../../pki/sign-certificate-request.js';
import type { Informer } from '../../registry/informer.js';
import { nowTimestamp } from '../../registry/operations/prepare.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import {
  approvalState, bytesField, csrConditionTypes, hasTrueCondition, issuedCertificate, signerNameOf, usagesOf, type CsrObject,
} from '../../pki/csr-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import type { Clock } from '../kit/clock.js';
import { realClock } from '../kit/clock.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { required, type CsrSigningConfig } from '../kit/controller-config.js';
import { createWorkQueue } from '../kit/work-queue.js';
import { signerVerdict } from './signer-rules.js';

/** The shortest lifetime issued (kube: twice its 5 minute backdate). */
const minimumDurationMs = 10 * 60_000;


/** The lifetime granted: the configured one, or the requested one when shorter, at least 10 minutes. */
export function grantedDurationMs(configuredMs: number, expirationSeconds: unknown): number {
  if (typeof expirationSeconds !== 'number') return configuredMs;
  const requested = expirationSeconds * 1000;
  if (requested > configuredMs) return configuredMs;
  return Math.max(requested, minimumDurationMs);
}

/** The sync of one request, over the CSR informer. */
export function csrSigningSync(registry: Registry, names: Names, def: ResourceDef, requests: Informer, signing: CsrSigningConfig, clock: Clock): (name: string) => Promise<SyncResult> {
  const writeStatus = async (current: CsrObject, next: CsrObject, what: string): Promise<SyncResult> => {
    const updated = await updateObject(registry, def, 'status', next, current, loopbackContext(registry.names, 'controller-manager'));
    // A conflict or a deletion: a newer state comes through the informer and is synced in its turn.
    if (!updated.ok && updated.error.code !== 404 && !updated.conflict) return retry(`${what}: ${updated.error.message ?? 'failed'}`);
    return done;
  };
  return async (name) => {
    const csr = requests.get('', name) as CsrObject | undefined;
    if (csr === undefined || issuedCertificate(csr).length > 0) return done;
    const { approved, denied } = approvalState(csr);
    if (!approved || denied || hasTrueCondition(csr, csrConditionTypes.failed)) return done;
    const signerName = signerNameOf(csr);
    const ca = signing.cas.get(signerName);
    if (ca === undefined) return done;
    const request = bytesField(csr.spec?.request);
    const parsed = request === undefined ? undefined : parseCertificateRequest(request);
    // Validation refuses such requests on create; a stored one can never be signed.
    if (parsed === undefined || !parsed.ok) return done;
    const usages = usagesOf(csr);
    const verdict = signerVerdict(names, signerName, parsed.value, usages);
    if (!verdict.recognized) return done;
    const next = structuredClone(csr);
    if (verdict.violation !== undefined) {
      const now = nowTimestamp();
      (next.status ??= {}).conditions = [...(next.status.conditions ?? []), {
        type: csrConditionTypes.failed, status: 'True', reason: 'SignerValidationFailure', message: verdict.violation,
        lastUpdateTime: now, lastTransitionTime: now,
      }];
      return writeStatus(csr, next, `adding a failure condition to ${name}`);
    }
    const signed = await signCertificateRequest(ca, parsed.value, {
      usages, durationMs: grantedDurationMs(signing.durationMs, csr.spec?.expirationSeconds), now: clock.now(),
    });
    if (!signed.ok) return retry(`signing ${name}: ${signed.error}`);
    (next.status ??= {}).certificate = Buffer.from(signed.value).toString('base64');
    return writeStatus(csr, next, `storing the certificate of ${name}`);
  };
}

/** Starts the controller. */
export function startCsrSigningController(context: ControllerContext): Controller {
  const { registry, names } = context;
  const signing = required(context.config?.csrSigning, 'csrsigning', 'signing CAs');
  const clock = context.config?.clock ?? realClock;
  const def = registry.lookup(names.group('certificates'), 'v1', 'certificatesigningrequests');
  return runController('csrsigning', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const requests = informers.informerFor(def);
    const queue = createWorkQueue();
    return {
      handlers: [{ informer: requests, listener: (change, csr) => { if (change !== 'DELETED') queue.add(csr.metadata?.name ?? ''); } }],
      // kube-controller-manager's --concurrent-certificate-syncs default.
      loops: [{ queue, sync: csrSigningSync(registry, names, def, requests, signing, clock), workers: 5 }],
    };
  });
}
