/**
 * watch (GET with `watch=1` on a collection, or on one object via its name or `fieldSelector=metadata.name=x`):
 * synthetic ADDED events for the current state when `resourceVersion` is unset or `0`, then every change after it;
 * selectors apply (an object leaving them is DELETED, entering is ADDED); an expired resourceVersion ends the stream
 * with an ERROR event carrying a 410 Status. Ends on `timeoutSeconds`, on client disconnect or shutdown.
 */
import { badRequest, type Status, type WatchEvent } from '@svc-apiserver/api';
import type { RequestContext, WatchStream } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { parseSelection } from '../../registry/selection.js';
import { requestNamespace } from './request-options.js';

/** Serves a watch; resolves when the stream has ended. */
export async function handleWatch(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  let fieldSelector = ctx.query.get('fieldSelector') ?? '';
  const name = ctx.info.name;
  if (name !== '' && !fieldSelector.split(',').includes(`metadata.name=${name}`)) {
    fieldSelector = fieldSelector ? `${fieldSelector},metadata.name=${name}` : `metadata.name=${name}`;
  }
  const selection = parseSelection(def, ctx.query.get('labelSelector'), fieldSelector);
  if (!selection.ok) return ctx.writeStatus(selection.status);
  const timeoutText = ctx.query.get('timeoutSeconds') ?? '';
  if (timeoutText !== '' && !/^\d+$/.test(timeoutText)) return ctx.writeStatus(badRequest(`invalid timeoutSeconds: ${JSON.stringify(timeoutText)}`));

  // Events produced before the stream starts (the initial state) wait here, so that a failed start can still
  // answer with a plain Status.
  let stream: WatchStream | undefined;
  const pending: WatchEvent[] = [];
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => { finish = resolve; });
  const send = (event: WatchEvent): void => {
    if (stream === undefined) pending.push(event);
    else if (!stream.closed) stream.send(event);
  };
  const fail = (status: Status): void => {
    send({ type: 'ERROR', object: status as unknown as WatchEvent['object'] });
    finish();
  };
  const started = await registry.store.watch(def, {
    namespace: requestNamespace(ctx, def),
    selection: selection.value,
    ...(ctx.query.get('resourceVersion') !== null ? { resourceVersion: ctx.query.get('resourceVersion')! } : {}),
  }, { event: send, error: fail });
  if (!started.ok) return ctx.writeStatus(started.status);

  stream = ctx.startWatch();
  for (const e of pending.splice(0)) stream.send(e);
  const timeout = timeoutText !== '' && Number(timeoutText) > 0 ? setTimeout(finish, Number(timeoutText) * 1000) : undefined;
  const onAbort = (): void => finish();
  if (ctx.signal.aborted) finish();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  await finished;
  started.value.cancel();
  if (timeout !== undefined) clearTimeout(timeout);
  ctx.signal.removeEventListener('abort', onAbort);
  if (!stream.closed) stream.end();
}
