/**
 * EventRateLimit (plugin/pkg/admission/eventratelimit; alpha): writes of core Events pass through token buckets,
 * one per limit of the configuration (kind `Configuration` of `eventratelimit.admission.<suffix>/v1alpha1`):
 * `Server` (one bucket), `Namespace`, `User` (one per namespace or user name) and `SourceAndObject` (one per event
 * source and involved object), each with `qps` and `burst`, the keyed ones holding at most `cacheSize` buckets
 * (least recently used go first). An empty bucket refuses the write with 429 TooManyRequests; dry runs are not
 * counted.
 */
import { failure, type Names, ok, type Result } from '@svc-apiserver/api';
import { configFields, configurationError, intField, versionedConfiguration } from '../plugin-configuration.js';
import { asObject, stringOf } from '../object-access.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionPlugin, type PluginConfigurationError, type PluginInit } from '../plugin.js';

/** The plugin's name. */
export const eventRateLimitPluginName = 'EventRateLimit';

/** A limit type of the configuration. */
type LimitType = 'Server' | 'Namespace' | 'User' | 'SourceAndObject';
const limitTypes: readonly LimitType[] = ['Server', 'Namespace', 'User', 'SourceAndObject'];

/** One limit. */
interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  readonly cacheSize: number;
}

/** kube's default cache size of the keyed limits. */
const defaultCacheSize = 4096;

/** A token bucket (flowcontrol.NewTokenBucketRateLimiter): `burst` tokens, refilled at `qps` per second. */
function tokenBucket(qps: number, burst: number, now: () => number) {
  let tokens = burst;
  let last = now();
  return {
    tryAccept(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** Buckets by key, the least recently used dropped beyond `size` (kube's LRU cache of limiters). */
function bucketCache(limit: Limit, now: () => number) {
  const buckets = new Map<string, ReturnType<typeof tokenBucket>>();
  return {
    get(key: string) {
      let b = buckets.get(key);
      if (b !== undefined) {
        buckets.delete(key);
      } else {
        b = tokenBucket(limit.qps, limit.burst, now);
        if (buckets.size >= limit.cacheSize) buckets.delete(buckets.keys().next().value as string);
      }
      buckets.set(key, b);
      return b;
    },
  };
}

/** Reads and checks the configuration (kube's validation of it). */
function readLimits(names: Names, raw: unknown): Result<Limit[], PluginConfigurationError> {
  const read = versionedConfiguration(eventRateLimitPluginName, raw, [`${names.group('eventratelimit.admission')}/v1alpha1`], 'Configuration');
  if (!read.ok) return read;
  if (read.value === undefined) return configurationError(eventRateLimitPluginName, 'limits: Required value: must not be empty');
  const list = read.value['limits'];
  if (!Array.isArray(list) || list.length === 0) return configurationError(eventRateLimitPluginName, 'limits: Required value: must not be empty');
  const limits: Limit[] = [];
  for (const [i, item] of list.entries()) {
    const l = configFields(item);
    const at = `limits[${i}]`;
    if (l === undefined) return configurationError(eventRateLimitPluginName, `${at}: must be an object`);
    const type = l['type'];
    if (typeof type !== 'string' || !limitTypes.includes(type as LimitType)) {
      return configurationError(eventRateLimitPluginName, `${at}.type: Unsupported value: ${JSON.stringify(type ?? '')}: supported values: ${limitTypes.map((t) => `"${t}"`).join(', ')}`);
    }
    const qps = intField(l, 'qps', 0);
    const burst = intField(l, 'burst', 0);
    const cacheSize = intField(l, 'cacheSize', type === 'Server' ? 0 : defaultCacheSize);
    if (qps === undefined || qps <= 0) return configurationError(eventRateLimitPluginName, `${at}.qps: Invalid value: ${JSON.stringify(l['qps'] ?? 0)}: must be positive`);
    if (burst === undefined || burst <= 0) return configurationError(eventRateLimitPluginName, `${at}.burst: Invalid value: ${JSON.stringify(l['burst'] ?? 0)}: must be positive`);
    if (cacheSize === undefined || cacheSize < 0) return configurationError(eventRateLimitPluginName, `${at}.cacheSize: Invalid value: ${JSON.stringify(l['cacheSize'])}: must not be negative`);
    limits.push({ type: type as LimitType, qps, burst, cacheSize: type === 'Server' ? 1 : cacheSize === 0 ? defaultCacheSize : cacheSize });
  }
  return ok(limits);
}

/** The bucket key of an event under a limit type (kube's getServerKey, getNamespaceKey, ...). */
function keyOf(type: LimitType, a: AdmissionAttributes): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return a.namespace;
    case 'User':
      return a.user.username;
    case 'SourceAndObject': {
      const source = asObject(a.object?.['source']) ?? {};
      const involved = asObject(a.object?.['involvedObject']) ?? {};
      return [source['host'], source['component'], involved['kind'], involved['namespace'], involved['name'], involved['uid'], involved['apiVersion']]
        .map(stringOf).join('');
    }
  }
}

/** Creates the plugin with its configuration; `now` is the clock of the buckets (tests pass their own). */
export function eventRateLimitPlugin(names: Names, init?: PluginInit, now: () => number = Date.now): Result<AdmissionPlugin, PluginConfigurationError> {
  const read = readLimits(names, init?.configuration(eventRateLimitPluginName));
  if (!read.ok) return read;
  const limits = read.value;
  const enforcers = limits.map((limit) => ({ limit, buckets: bucketCache(limit, now) }));
  return ok({
    name: eventRateLimitPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(a) {
      // Only core Events are limited (events.<domain> Events are another kind group).
      if (a.kind !== 'Event' || a.group !== '' || a.dryRun) return admitted;
      const errors: string[] = [];
      for (const { limit, buckets } of enforcers) {
        const key = keyOf(limit.type, a);
        if (!buckets.get(key).tryAccept()) errors.push(`limit reached on type ${limit.type} for key ${key}`);
      }
      if (errors.length === 0) return admitted;
      const message = errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
      return refused(failure('TooManyRequests', `Too many requests: ${message}`));
    },
  });
}
