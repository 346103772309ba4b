/**
 * Request deadlines (k8s.io/apiserver's WithRequestDeadline and WithTimeoutForNonLongRunningRequests): every
 * request that is not long-running gets `--request-timeout`, or less when its `timeout` query parameter (a Go
 * duration) asks for less; a request still unanswered at its deadline is answered 504 Timeout and ends (its signal
 * aborts, an unread body is dropped). A `timeout` that is no duration is 400 BadRequest. Long-running requests
 * (watches, proxy, and the attach, exec, log, portforward and proxy subresources) have no deadline.
 */
import { badRequest, failure, parseGoDuration, type Status } from '@svc-apiserver/api';
import type { Filter, RequestContext } from '../context.js';
import type { RequestInfo } from '../../request/request-info.js';
import { expire, writeStatus } from '../response-writer.js';

const longRunningVerbs: ReadonlySet<string> = new Set(['watch', 'proxy']);
const longRunningSubresources: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** kube's BasicLongRunningRequestCheck with kube-apiserver's verbs and subresources. */
export function isLongRunning(info: RequestInfo): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  if (info.isResourceRequest) return longRunningSubresources.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}

/** The 504 of a request past its deadline, as kube's timeout filter words it. */
export function requestTimedOut(): Status {
  return failure('Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}

/** Where failures of work that outlived its deadline are reported. */
export type LateFailureLogger = (message: string, error: unknown) => void;

/**
 * The request-timeout filter; `maxMs` is `--request-timeout` (0: no deadline unless the request asks for one);
 * `onExpired` counts each request answered 504 (the request metrics).
 */
export function requestTimeout(maxMs: number, log: LateFailureLogger, onExpired?: (ctx: RequestContext, code: number) => void): Filter {
  // The deadline timers are armed once a turn, for the requests of the turn before still unanswered: under a flood
  // most requests are refused (429) within the turn their chain started in and never need one. Armed late, a timer
  // still fires at the deadline counted from the request's start.
  let toArm: (() => void)[] = [];
  const armAll = (): void => {
    const due = toArm;
    toArm = [];
    for (const a of due) a();
  };
  const arm = (a: () => void): void => {
    if (toArm.push(a) === 1) setImmediate(armAll);
  };
  return (ctx, next) => {
    if (isLongRunning(ctx.info)) return next();
    let deadlineMs = maxMs;
    const asked = ctx.query.size === 0 ? null : ctx.query.get('timeout');
    if (asked !== null && asked !== '') {
      const parsed = parseGoDuration(asked);
      if (!parsed.ok) {
        writeStatus(ctx, badRequest(`invalid timeout specified in the request URL - ${parsed.error}`));
        return Promise.resolve();
      }
      // A zero or negative timeout asks for no deadline of the client's own; more than the maximum gets the maximum.
      if (parsed.value > 0 && (maxMs === 0 || parsed.value < maxMs)) deadlineMs = parsed.value;
    }
    if (deadlineMs <= 0) return next();
    const deadlineAt = performance.now() + deadlineMs;
    // One promise settled by whichever comes first, the work or the deadline (no race of two promises per request).
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const expireNow = (): void => {
        settled = true;
        const timedOut = requestTimedOut();
        expire(ctx, timedOut);
        onExpired?.(ctx, timedOut.code);
        resolve();
      };
      let work: Promise<void>;
      try {
        work = next();
      } catch (error) {
        reject(error);
        return;
      }
      arm(() => {
        if (!settled) timer = setTimeout(expireNow, Math.max(0, deadlineAt - performance.now()));
      });
      work.then(
        () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve();
        },
        (error: unknown) => {
          // The work goes on after the deadline until it notices the aborted signal; a failure then is only logged.
          if (settled) {
            log(`failure after the deadline of ${ctx.method} ${ctx.path}`, error);
            return;
          }
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
}
