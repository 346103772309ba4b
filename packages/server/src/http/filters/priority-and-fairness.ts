/**
 * The API Priority and Fairness filter (k8s.io/apiserver's WithPriorityAndFairness), after impersonation and
 * before authorization, in the place of the max-in-flight limit while the APIPriorityAndFairness gate is on: the
 * request is classified, every response names the FlowSchema and priority level by UID
 * (`X-Kubernetes-PF-FlowSchema-UID`, `X-Kubernetes-PF-PriorityLevel-UID`), and it executes once its level gives it
 * a seat. A request its level rejects (queue full, waited too long, no seat at a Reject level) is answered 429
 * TooManyRequests with `Retry-After`. Long-running requests (watches, exec, ...) are classified but hold no seat,
 * as they would hold it for their whole life.
 *
 * As with the max-in-flight limit, a request holds its seat from the turn of the event loop it arrived in and
 * starts in the turn scheduler's slices: a burst fills the seats and queues at once and its excess is refused
 * before any of it is served, instead of running to its end inside one long turn while /livez and new connections
 * wait. Exempt requests start at once.
 */
import { failure, type Status } from '@svc-apiserver/api';
import type { FlowController } from '../../flowcontrol/flow-controller.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { createTurnScheduler } from '../turn-scheduler.js';
import { writeStatus } from '../response-writer.js';

/** The response header naming the FlowSchema's UID. */
export const flowSchemaUidHeader = 'X-Kubernetes-PF-FlowSchema-UID';
/** The response header naming the priority level's UID. */
export const priorityLevelUidHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

/** The answer of a rejected request, as kube-apiserver words it, with the second it asks clients to wait. */
export function tooManyRequests(): Status {
  return failure('TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
}

/** The filter; `onDropped` counts each request it refuses with 429 (the request metrics). */
export function priorityAndFairness(controller: FlowController, onDropped?: (ctx: RequestContext) => void): Filter {
  const scheduler = createTurnScheduler();
  return async (ctx, next) => {
    const c = controller.classify(ctx.user, ctx.info);
    ctx.record.responseHeaders[flowSchemaUidHeader] = c.flowSchema.metadata.uid ?? '';
    ctx.record.responseHeaders[priorityLevelUidHeader] = c.priorityLevel.metadata.uid ?? '';
    if (isLongRunning(ctx.info)) return next();
    const admission = await controller.admit(c, () => ctx.signal);
    ctx.record.latency.apfQueueWaitSeconds += admission.waitedMs / 1000;
    if (admission.kind === 'reject') {
      if (admission.reason !== 'cancelled') {
        writeStatus(ctx, tooManyRequests());
        onDropped?.(ctx);
      }
      return;
    }
    try {
      await (c.priorityLevel.spec.type === 'Exempt' ? next() : scheduler.run(next));
    } finally {
      admission.release();
    }
  };
}
