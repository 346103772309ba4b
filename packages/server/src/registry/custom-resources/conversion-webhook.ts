/**
 * CRD conversion webhooks (apiextensions-apiserver's webhookConverter): objects are sent in a ConversionReview
 * (`apiextensions.svc.io/v1`, or `v1beta1` when the CRD lists only that in `conversionReviewVersions`) with the
 * desired apiVersion, to the `clientConfig`'s url or Service through the one outbound client, verified with its
 * `caBundle`, within 30 seconds. The answer must carry the request's uid, `result.status: Success` and one
 * converted object per object sent, each of the desired apiVersion and of the same kind; the converted objects keep
 * the originals' metadata except labels and annotations, as kube restores it. Failures are 500s worded as kube's.
 */
import { randomUUID } from 'node:crypto';
import { fail, internalError, type KubeObject, type Names, ok, type Result } from '@svc-apiserver/api';
import { resolveClientConfig, type ClientConfig, type ClientConfigResolvers } from '../../outbound/client-config.js';
import { httpsPostJson } from '../../outbound/https-request.js';
import type { ObjectConverter } from '../resource-def.js';
import type { WebhookClientConfig } from '../../apiextensions/crd.js';
import { isRecord } from '../../apiextensions/schema/json-schema-props.js';

/** kube's conversion webhook timeout. */
const timeoutMs = 30_000;

/** What a webhook converter is made of. */
export interface ConversionWebhookOptions {
  readonly names: Names;
  readonly group: string;
  readonly kind: string;
  readonly storageVersion: string;
  readonly clientConfig: WebhookClientConfig;
  readonly reviewVersions: readonly string[];
  readonly resolvers: ClientConfigResolvers;
}

/** The review version to send: the first of the CRD's list this server speaks. */
function reviewVersionOf(versions: readonly string[]): string {
  return versions.find((v) => v === 'v1' || v === 'v1beta1') ?? 'v1';
}

/** A converter calling the CRD's webhook. */
export function conversionWebhook(options: ConversionWebhookOptions): ObjectConverter {
  const reviewApiVersion = `${options.names.group('apiextensions')}/${reviewVersionOf(options.reviewVersions)}`;
  const cc = options.clientConfig;
  const clientConfig: ClientConfig = {
    ...(cc.url !== undefined ? { url: cc.url } : {}),
    ...(cc.service !== undefined
      ? { service: { namespace: cc.service.namespace ?? '', name: cc.service.name ?? '', ...(cc.service.path !== undefined ? { path: cc.service.path } : {}), port: cc.service.port ?? 443 } }
      : {}),
    ...(cc.caBundle !== undefined ? { caBundle: cc.caBundle } : {}),
  };
  return {
    storageVersion: options.storageVersion,
    async convert(objects, apiVersion): Promise<Result<KubeObject[]>> {
      const failed = (detail: string): Result<KubeObject[]> =>
        fail(internalError(`conversion webhook for ${apiVersion}, Kind=${options.kind} failed: ${detail}`));
      // Objects already in the desired version are not sent (kube converts only what differs).
      const pending = objects.map((o, i) => [o, i] as const).filter(([o]) => o.apiVersion !== apiVersion);
      if (pending.length === 0) return ok(objects.map((o) => ({ ...o })));
      const resolved = await resolveClientConfig(clientConfig, options.resolvers, timeoutMs);
      if (!resolved.ok) return failed(resolved.error);
      const uid = randomUUID();
      const review = {
        apiVersion: reviewApiVersion, kind: 'ConversionReview',
        request: { uid, desiredAPIVersion: apiVersion, objects: pending.map(([o]) => o) },
      };
      const answer = await httpsPostJson(resolved.value.url, resolved.value.target, review);
      if (!answer.ok) return failed(`Post "${resolved.value.url}": ${answer.error}`);
      const response = isRecord(answer.value.body) && isRecord(answer.value.body['response']) ? answer.value.body['response'] : undefined;
      if (response === undefined) return failed('no response provided');
      if (response['uid'] !== uid) return failed(`expected response uid ${JSON.stringify(uid)}, got ${JSON.stringify(response['uid'])}`);
      const result = isRecord(response['result']) ? response['result'] : {};
      if (result['status'] !== 'Success') {
        return fail(internalError(`conversion webhook for ${apiVersion}, Kind=${options.kind} returned failure: ${String(result['message'] ?? '')}`));
      }
      const converted = Array.isArray(response['convertedObjects']) ? response['convertedObjects'] : [];
      if (converted.length !== pending.length) return failed(`returned ${converted.length} objects, expected ${pending.length}`);
      const out = objects.map((o) => ({ ...o }));
      for (let i = 0; i < pending.length; i++) {
        const [original, at] = pending[i]!;
        const c = converted[i];
        if (!isRecord(c)) return failed(`converted object at index ${i} is not an object`);
        if (c['apiVersion'] !== apiVersion) return failed(`invalid converted object at index ${i}: invalid apiVersion ${JSON.stringify(c['apiVersion'])}, expected ${JSON.stringify(apiVersion)}`);
        if (c['kind'] !== original.kind) return failed(`invalid converted object at index ${i}: invalid kind ${JSON.stringify(c['kind'])}, expected ${JSON.stringify(original.kind)}`);
        const meta = isRecord(c['metadata']) ? c['metadata'] : {};
        // Only labels and annotations may change; everything else of metadata is the original's.
        const metadata = { ...(original.metadata ?? {}) } as Record<string, unknown>;
        for (const k of ['labels', 'annotations']) {
          if (meta[k] === undefined) delete metadata[k];
          else metadata[k] = meta[k];
        }
        out[at] = { ...(c as KubeObject), metadata: metadata as NonNullable<KubeObject['metadata']> };
      }
      return ok(out);
    },
  };
}
