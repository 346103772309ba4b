/**
 * The audit-ID filter (k8s.io/apiserver's WithAuditInit): every request gets an audit ID, the one a front server
 * sent in `Audit-ID` or a new UUID, and every response carries it as `Audit-Id`, whether or not auditing is on,
 * so a client's failure report can be matched with the server's logs.
 */
import { randomUUID } from 'node:crypto';
import type { Filter } from '../context.js';

/** The header a client or front server may send and every response carries. */
export const auditIdHeader = 'Audit-Id';

/** An ID a client may hand us: short and printable, so it cannot smuggle anything into logs or headers. */
const acceptable = /^[\x21-\x7e]{1,128}$/;

/** The audit-ID filter. */
export function auditId(): Filter {
  return (ctx, next) => {
    const sent = ctx.headers['audit-id'];
    const id = typeof sent === 'string' && acceptable.test(sent) ? sent : randomUUID();
    ctx.record.auditID = id;
    ctx.record.responseHeaders[auditIdHeader] = id;
    return next();
  };
}
