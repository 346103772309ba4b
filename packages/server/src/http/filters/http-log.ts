/**
 * The request log (k8s.io/apiserver's WithHTTPLogging and httplog): at verbosity 3 and above every request ends in
 * one structured line `"HTTP"` with the verb as kube's metrics normalize it, the URI as sent, the latency (a Go
 * duration), the user agent, the audit ID, the client's address and the response code. Nothing else of the request
 * is logged: no header, so no credential, and no body, so no Secret data. Below verbosity 3 the filter is not in
 * the chain at all.
 */
import { formatGoDuration } from '@svc-apiserver/api';
import type { Filter } from '../context.js';
import { metricScope, metricVerb } from './request-metrics.js';
import type { Logger } from '../../logging/logger.js';

/** The verbosity kube's httplog writes at. */
export const httpLogLevel = 3;

/** The request log filter over `logger`; a pass-through when the logger's verbosity is below 3. */
export function httpLog(logger: Logger): Filter {
  if (!logger.enabled(httpLogLevel)) return (_ctx, next) => next();
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const query = ctx.query.toString();
      logger.infoS('HTTP', {
        // kube's httplog reports metrics.NormalizedVerb, the verb the request metrics report.
        verb: metricVerb(ctx, metricScope(ctx.info)),
        URI: query === '' ? ctx.path : `${ctx.path}?${query}`,
        latency: formatGoDuration(Number(process.hrtime.bigint() - started)),
        userAgent: ctx.headers['user-agent'] ?? '',
        'audit-ID': ctx.record.auditID,
        srcIP: ctx.record.remoteAddress,
        resp: ctx.record.responseCode ?? 0,
      }, httpLogLevel);
    }
  };
}
