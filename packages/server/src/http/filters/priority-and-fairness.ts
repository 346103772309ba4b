/**
 * The API Priority and Fairness filter (k8s.io/apiserver's WithPriorityAndFairness, 1.27), after impersonation and
 * before authorization, in the place of the max-in-flight limit while the APIPriorityAndFairness gate is on:
 *
 * 1. long-running requests other than watches (exec, attach, logs, port-forward, proxy) pass untouched;
 * 2. the request is classified, and every response names the FlowSchema and priority level by UID
 *    (`X-Kubernetes-PF-FlowSchema-UID`, `X-Kubernetes-PF-PriorityLevel-UID`);
 * 3. a request of a limited level has its work estimated (a list by the objects it may return, a write by the
 *    watches it notifies) and waits for that many seats of its level;
 * 4. a request its level rejects (queue full, waited too long, no seat at a Reject level) is answered 429
 *    TooManyRequests with `Retry-After`;
 * 5. a watch is counted among the server's watches (the cost of writes) for as long as it lives, and holds its seat
 *    only until it is initialized: until its response starts — this server's watch handler answers once the
 *    watch's initial state is made, the point where kube's watch cache signals — or until it fails or its client
 *    leaves, whichever comes first.
 *
 * As with the max-in-flight limit, a request holds its seats from the turn of the event loop it arrived in and
 * starts in the turn scheduler's slices: a burst fills the seats and queues at once and its excess is refused
 * before any of it is served, instead of running to its end inside one long turn while /livez and new connections
 * wait. Exempt requests start at once.
 */
import { failure, type Status } from '@svc-apiserver/api';
import type { FlowController } from '../../flowcontrol/flow-controller.js';
import { createInitializationSignal } from '../../flowcontrol/initialization-signal.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { createTurnScheduler, type TurnScheduler } from '../turn-scheduler.js';
import { prepareStatus, writePreparedStatus } from '../response-writer.js';
import { parseListQuery } from '../handlers/request-options.js';

/** The response header naming the FlowSchema's UID. */
export const flowSchemaUidHeader = 'X-Kubernetes-PF-FlowSchema-UID';
/** The response header naming the priority level's UID. */
export const priorityLevelUidHeader = 'X-Kubernetes-PF-PriorityLevel-UID';

/** The answer of a rejected request, as kube-apiserver words it, with the second it asks clients to wait. */
export function tooManyRequests(): Status {
  return failure('TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
}

/** The query's `limit` as list options convert it, undefined when they do not convert (the list estimator's input). */
function listLimit(ctx: RequestContext): number | undefined {
  if (ctx.info.verb !== 'list') return 0;
  const options = parseListQuery(ctx.query);
  return options.ok ? options.value.limit : undefined;
}

/**
 * The filter; `onDropped` counts each request it refuses with 429 (the request metrics); admitted requests of limited
 * levels start on `scheduler` (the server's deferred lane; default: a scheduler of their own).
 */
export function priorityAndFairness(controller: FlowController, onDropped?: (ctx: RequestContext) => void, scheduler: TurnScheduler = createTurnScheduler()): Filter {
  // One answer for every refusal, encoded once per way of asking: a flood is refused at the cost of writing it.
  const refusal = prepareStatus(tooManyRequests());
  return async (ctx, next) => {
    const info = ctx.info;
    const watch = info.verb === 'watch';
    if (!watch && isLongRunning(info)) return next();
    const c = controller.classify(ctx.user, info);
    ctx.record.responseHeaders[flowSchemaUidHeader] = c.flowSchema.metadata.uid ?? '';
    ctx.record.responseHeaders[priorityLevelUidHeader] = c.priorityLevel.metadata.uid ?? '';
    const exempt = c.priorityLevel.spec.type === 'Exempt';
    const estimate = exempt ? undefined : controller.estimateWork(c, { info, query: ctx.query, limit: listLimit(ctx) });
    const admission = await controller.admit(c, { ...(estimate === undefined ? {} : { estimate }), signal: () => ctx.signal, watch });
    ctx.record.latency.apfQueueWaitSeconds += admission.waitedMs / 1000;
    if (admission.kind === 'reject') {
      if (admission.reason !== 'cancelled') {
        writePreparedStatus(ctx, refusal);
        onDropped?.(ctx);
      }
      return;
    }
    const serve = (): Promise<void> => (exempt ? next() : scheduler.run(next));
    if (!watch) {
      try {
        await serve();
      } finally {
        admission.release();
      }
      return;
    }
    const forget = controller.watches.register(info, ctx.query);
    const initialization = createInitializationSignal();
    const before = ctx.record.onResponseStart;
    ctx.record.onResponseStart = (code) => {
      before?.(code);
      initialization.signal();
    };
    void initialization.initialized.then(() => admission.release());
    try {
      await serve();
    } finally {
      initialization.signal();
      forget();
    }
  };
}
