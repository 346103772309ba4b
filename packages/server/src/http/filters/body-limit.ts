/**
 * The request body limit (kube-apiserver's --max-request-body-bytes): a declared Content-Length over the limit is
 * refused at once with 413, before any handler runs. Bodies without a declared length are bounded while they are
 * read (the transport's readBody).
 */
import { requestEntityTooLarge } from '@svc-apiserver/api';
import type { Filter } from '../context.js';
import { writeStatus } from '../response-writer.js';

/** The body-limit filter. */
export function bodyLimit(maxBytes: number): Filter {
  return (ctx, next) => {
    const length = ctx.headers['content-length'];
    const declared = length === undefined ? NaN : Number(length);
    if (!(Number.isFinite(declared) && declared > maxBytes)) return next();
    // readBody records that the body is abandoned (so HTTP/1.1 closes the connection) and yields the 413.
    return ctx.transport.readBody().then((read) => writeStatus(ctx, read.ok ? requestEntityTooLarge(maxBytes) : read.error));
  };
}
