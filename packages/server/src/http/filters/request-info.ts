/**
 * The request-info filter (k8s.io/apiserver's WithRequestInfo): parses the path and method once so every later
 * filter and handler reads {@link RequestContext.info}.
 */
import { badRequest } from '@svc-apiserver/api';
import type { Filter } from '../context.js';
import { parseRequestInfo } from '../parse-request-info.js';
import { stockCrdProbe } from '../stock-crd-probe.js';
import { writeStatus } from '../response-writer.js';

/** The request-info filter. A path that names no resource after a special verb is a 400. */
export function requestInfoFilter(): Filter {
  return (ctx, next) => {
    const parsed = parseRequestInfo(ctx.method, ctx.path, ctx.query);
    if (!parsed.ok) {
      writeStatus(ctx, badRequest(parsed.error.message));
      return Promise.resolve();
    }
    ctx.info = stockCrdProbe(parsed.value, ctx.names);
    return next();
  };
}
