/**
 * Which flavour of names a server speaks, told from the API groups it serves: a server serving the svc flavour's
 * RBAC group speaks `svc`; any other (kube-apiserver, or this server with `--flavour=k8s`) speaks `k8s`. Clients
 * need it to spell renamed groups (`coordination.svc.io` or `coordination.k8s.io`) and renamed annotations.
 */
import { namesFor, ok, type Flavour, type Result } from '@svc-apiserver/api';
import type { HttpRequest } from './transport.js';

/** What the flavour is read with: a client's pinned flavour and its JSON requests (a RestClient is one). */
export interface FlavourSource {
  readonly flavour: Flavour | undefined;
  request<T = unknown>(req: HttpRequest): Promise<Result<T>>;
}

const svcRbacGroup = namesFor('svc').group('rbac.authorization');

/** The flavour of a server that serves `groups`. */
export function flavourOfGroups(groups: Iterable<string>): Flavour {
  for (const g of groups) if (g === svcRbacGroup) return 'svc';
  return 'k8s';
}

const detected = new WeakMap<FlavourSource, Promise<Result<Flavour>>>();

/**
 * The flavour of the client's server: the client's `flavour` option when it pins one, else read once from `/apis`
 * and remembered for the client's life (a failed read is not remembered).
 */
export function serverFlavour(client: FlavourSource): Promise<Result<Flavour>> {
  if (client.flavour !== undefined) return Promise.resolve(ok(client.flavour));
  let found = detected.get(client);
  if (found === undefined) {
    found = client.request<{ groups?: Array<{ name: string }> }>({ method: 'GET', path: '/apis', headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? ok(flavourOfGroups((r.value.groups ?? []).map((g) => g.name))) : r));
    detected.set(client, found);
    void found.then((r) => { if (!r.ok) detected.delete(client); });
  }
  return found;
}
