/**
 * Which requests are long-running (kube-apiserver's LongRunningRequestCheck, built there with
 * BasicLongRunningRequestCheck): watches and proxies, the streaming subresources (attach, exec, log, portforward,
 * proxy), and the profiler's paths. They hold their connection for as long as the client wants, so the
 * max-in-flight limit does not count them and request timeouts do not end them.
 */
import type { RequestInfo } from '../request/request-info.js';

const longRunningVerbs: ReadonlySet<string> = new Set(['watch', 'proxy']);
const longRunningSubresources: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** True for a request kube-apiserver treats as long-running. */
export function isLongRunning(info: RequestInfo): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  if (info.isResourceRequest) return longRunningSubresources.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}
