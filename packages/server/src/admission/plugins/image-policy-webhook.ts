/**
 * ImagePolicyWebhook (plugin/pkg/admission/imagepolicy): a backend decides whether a pod's images may run. The
 * server POSTs an `ImageReview` (`imagepolicy.<suffix>/v1alpha1`) with the containers' images (init and regular
 * ones, or the ephemeral ones for `pods/ephemeralcontainers`), the pod's `*.image-policy.<domain>/*` annotations
 * and the namespace, to the backend of the `kubeConfigFile` connection file; `status.allowed` false refuses the
 * pod with `status.reason`. Answers are cached by review (`allowTTL`, `denyTTL` seconds; -1 disables), failed calls
 * retried with exponential backoff from `retryBackoff` milliseconds, and when the backend cannot be reached
 * `defaultAllow` decides (an allowed pod is marked `alpha.image-policy.<domain>/failed-open`).
 */
import { fail, type KubeObject, type Names, ok, type Result } from '@svc-apiserver/api';
import { httpsPostJson } from '../../outbound/https-request.js';
import { loadWebhookConnection, type WebhookConnection } from '../../outbound/webhook-connection.js';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, asObject, containersOf, specOf, stringMap, stringOf } from '../object-access.js';
import { configFields, configurationError } from '../plugin-configuration.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionPlugin, type PluginConfigurationError, type PluginInit } from '../plugin.js';

/** The plugin's name. */
export const imagePolicyWebhookPluginName = 'ImagePolicyWebhook';

/** The settings of `imagePolicy`, normalized (normalizeWebhookConfig). */
interface ImagePolicySettings {
  readonly connection: WebhookConnection;
  readonly allowTtlMs: number;
  readonly denyTtlMs: number;
  readonly retryBackoffMs: number;
  readonly defaultAllow: boolean;
}

/** Most cached answers (kube's LRU expire cache of 1024). */
const cacheSize = 1024;
/** Attempts of one review (wait.Backoff Steps). */
const attempts = 5;

/** normalizeConfigDuration: -1 disables, 0 is the default, else `value` × `scale` ms within [min, max]. */
function normalizeDuration(name: string, value: unknown, scaleMs: number, minMs: number, maxMs: number, defaultMs: number): Result<number, string> {
  if (value === undefined || value === null || value === 0) return ok(defaultMs);
  if (typeof value !== 'number' || !Number.isInteger(value)) return fail(`${name}: must be an integer`);
  if (value === -1) return ok(0);
  const ms = value * scaleMs;
  if (ms < minMs || ms > maxMs) return fail(`${name}: valid value is between ${minMs}ms and ${maxMs}ms, got ${ms}ms`);
  return ok(ms);
}

/** Reads the configuration; the plugin cannot run without one. */
function readSettings(raw: unknown): Result<ImagePolicySettings, PluginConfigurationError> {
  const refuse = (why: string) => configurationError(imagePolicyWebhookPluginName, why);
  const policy = configFields(configFields(raw)?.['imagePolicy']);
  if (policy === undefined) return refuse('an imagePolicy configuration with a kubeConfigFile is required');
  const file = policy['kubeConfigFile'];
  if (typeof file !== 'string' || file === '') return refuse('imagePolicy.kubeConfigFile is required');
  const connection = loadWebhookConnection(file);
  if (!connection.ok) return refuse(connection.error);
  const retryBackoffMs = normalizeDuration('backoff', policy['retryBackoff'], 1, 1, 5 * 60_000, 500);
  if (!retryBackoffMs.ok) return refuse(retryBackoffMs.error);
  const allowTtlMs = normalizeDuration('allow cache', policy['allowTTL'], 1000, 1000, 30 * 60_000, 5 * 60_000);
  if (!allowTtlMs.ok) return refuse(allowTtlMs.error);
  const denyTtlMs = normalizeDuration('deny cache', policy['denyTTL'], 1000, 1000, 30 * 60_000, 30_000);
  if (!denyTtlMs.ok) return refuse(denyTtlMs.error);
  const defaultAllow = policy['defaultAllow'];
  if (defaultAllow !== undefined && typeof defaultAllow !== 'boolean') return refuse('imagePolicy.defaultAllow must be a boolean');
  return ok({
    connection: connection.value, retryBackoffMs: retryBackoffMs.value, allowTtlMs: allowTtlMs.value, denyTtlMs: denyTtlMs.value,
    defaultAllow: defaultAllow === true,
  });
}

/** An answer of the backend, kept until it expires. */
interface CachedStatus {
  readonly status: { allowed: boolean; reason: string; auditAnnotations: Record<string, string> };
  readonly expires: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the plugin with its configuration; `now` is the cache's clock. */
export function imagePolicyWebhookPlugin(names: Names, init?: PluginInit, now: () => number = Date.now): Result<AdmissionPlugin, PluginConfigurationError> {
  const raw = init?.configuration(imagePolicyWebhookPluginName);
  // Without a configuration the plugin can only be refused when it is enabled; the chain asks only then.
  const read = readSettings(raw);
  if (!read.ok) return read;
  const settings = read.value;
  const apiVersion = `${names.group('imagepolicy')}/v1alpha1`;
  const reviewAnnotationMarker = `.${names.domain('', 'image-policy')}`;
  const auditPrefix = names.domain('', 'imagepolicywebhook.image-policy');
  const failedOpenAnnotation = names.domain('failed-open', 'alpha.image-policy');
  const cache = new Map<string, CachedStatus>();

  /** One review, retried with exponential backoff on failures to reach the backend or 5xx/429 answers. */
  const post = async (review: unknown): Promise<Result<unknown, string>> => {
    let delay = settings.retryBackoffMs;
    let last: Result<unknown, string> = fail('no attempt made');
    for (let i = 0; i < attempts; i++) {
      const res = await httpsPostJson(settings.connection.server, settings.connection.target, review);
      if (res.ok && res.value.status >= 200 && res.value.status < 300) return ok(res.value.body);
      last = res.ok ? fail(`Error contacting webhook: ${res.value.status}`) : res;
      const retryable = !res.ok || res.value.status === 429 || res.value.status >= 500;
      if (!retryable || i === attempts - 1) break;
      await sleep(delay * (1 + Math.random() * 0.2));
      delay *= 1.5;
    }
    return last;
  };

  const failed = (a: AdmissionAttributes, why: string) => {
    if (!settings.defaultAllow) return refused(admissionForbidden(a, why));
    a.recorder?.annotate(`${auditPrefix}failed-open`, 'true', 'Metadata');
    const meta = ((a.object as KubeObject).metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}), [failedOpenAnnotation]: 'true' };
    return admitted;
  };

  return ok({
    name: imagePolicyWebhookPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.object === undefined) return admitted;
      if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return admitted;
      const spec = specOf(a.object);
      const lists = a.subresource === '' ? (['containers', 'initContainers'] as const) : (['ephemeralContainers'] as const);
      const containers = containersOf(spec, [...lists]).map(({ container }) => ({ image: stringOf(container['image']) }));
      const annotations = Object.fromEntries(Object.entries(annotationsOf(a.object)).filter(([k]) => k.includes(reviewAnnotationMarker)));
      const reviewSpec = { containers, ...(Object.keys(annotations).length > 0 ? { annotations } : {}), namespace: a.namespace };
      const key = JSON.stringify(reviewSpec);
      let entry = cache.get(key);
      if (entry !== undefined && entry.expires <= now()) {
        cache.delete(key);
        entry = undefined;
      }
      if (entry === undefined) {
        const answer = await post({ apiVersion, kind: 'ImageReview', spec: reviewSpec });
        if (!answer.ok) return failed(a, answer.error);
        const status = asObject(asObject(answer.value)?.['status']);
        if (status === undefined || typeof status['allowed'] !== 'boolean') return failed(a, 'image policy webhook answered without status.allowed');
        const kept = { allowed: status['allowed'], reason: stringOf(status['reason']), auditAnnotations: stringMap(status['auditAnnotations']) };
        const ttl = kept.allowed ? settings.allowTtlMs : settings.denyTtlMs;
        entry = { status: kept, expires: now() + ttl };
        if (ttl > 0) {
          if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
          cache.set(key, entry);
        }
      }
      for (const [k, v] of Object.entries(entry.status.auditAnnotations)) a.recorder?.annotate(`${auditPrefix}${k}`, v, 'Metadata');
      if (!entry.status.allowed) {
        return refused(admissionForbidden(a, entry.status.reason !== ''
          ? `image policy webhook backend denied one or more images: ${entry.status.reason}`
          : 'one or more images rejected by webhook backend'));
      }
      return admitted;
    },
  });
}
