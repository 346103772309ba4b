/**
 * `GET /metrics` (k8s.io/apiserver's routes.DefaultMetrics over component-base's legacyregistry handler): every
 * served metric in the Prometheus text format, gzipped when the scraper accepts it as Prometheus' handler does.
 * Authorized as any non-resource URL (kube's bootstrap policy grants it to `system:monitoring`).
 */
import { gzipSync } from 'node:zlib';
import type { MetricsRegistry } from '../../metrics/metrics-registry.js';
import type { RequestContext } from '../context.js';
import { writeBytes } from '../response-writer.js';

/** Answers a scrape of `registry`. */
export async function serveMetrics(ctx: RequestContext, registry: MetricsRegistry): Promise<void> {
  const text = await registry.exposition();
  const accepted = String(ctx.headers['accept-encoding'] ?? '').split(',').some((e) => e.trim().split(';')[0] === 'gzip');
  if (accepted) writeBytes(ctx, 200, registry.contentType, gzipSync(text), { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
  else writeBytes(ctx, 200, registry.contentType, text);
}
