/**
 * The serviceaccount-token controller (pkg/controller/serviceaccount TokensController) for legacy token Secrets of
 * type `<domain>/service-account-token`:
 *
 * - A token Secret naming an existing account (annotation `<domain>/service-account.name`, and `.uid` when set) is
 *   filled: `token` (a legacy token signed with `--service-account-private-key-file`), `ca.crt` (the root CA) and
 *   `namespace`, and gets the account's uid annotation; the account lists it in `secrets`.
 * - A token Secret whose account does not exist (or has another uid) is deleted; deleting an account deletes its
 *   token Secrets.
 * - A token Secret the account lists in `secrets` that is deleted while the account lives is replaced: a new token
 *   Secret `<account>-token-<5 characters>` is created and listed in its place (the spec's replacement reference).
 *   An account that lists no token gets none: no token Secret is made for a new account. Account writes are retried
 *   on conflict, and a replacement is named after the Secret it replaces, so a retried sync never makes two.
 *
 * Keys carry what a deleted object's handling needs (its uid, and a Secret's account), as kube's queue keys do.
 */
import { createHash } from 'node:crypto';
import { fail, ok, type KubeObject, type Names, type Result } from '@svc-apiserver/api';
import type { ServiceAccountTokenIssuer } from '../../auth/serviceaccount/token-issuer.js';
import { generatedSuffixAlphabet, generatedSuffixLength } from '../../meta/generate-name.js';
import type { Informer } from '../../registry/informer.js';
import { createObject } from '../../registry/operations/create-object.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { serviceAccountTokenNames } from '../../registry/resources/secrets.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { ignorableCreateFailure } from '../create-failures.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { required } from '../kit/controller-config.js';
import { createWorkQueue } from '../kit/work-queue.js';


type Secret = KubeObject & { type?: string; data?: Record<string, string> };
type Account = KubeObject & { secrets?: { name?: string }[] };

/** A queued account: namespace, name, uid. */
type AccountKey = [string, string, string];
/** A queued Secret: namespace, name, uid, account name, account uid. */
type SecretKey = [string, string, string, string, string];

/** Five generated-name characters derived from `seed`. */
function suffixOf(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < generatedSuffixLength; i++) out += generatedSuffixAlphabet[digest[i]! % generatedSuffixAlphabet.length];
  return out;
}

/** What the two syncs need. */
export interface TokenControllerParts {
  readonly registry: Registry;
  readonly names: Names;
  readonly secretDef: ResourceDef;
  readonly accountDef: ResourceDef;
  readonly secrets: Informer;
  readonly accounts: Informer;
  readonly issuer: ServiceAccountTokenIssuer;
  readonly rootCaPem: string;
}

/** The two syncs of the controller (accounts and Secrets), over its informers. */
export function tokenControllerSyncs(p: TokenControllerParts): { syncAccount(key: string): Promise<SyncResult>; syncSecret(key: string): Promise<SyncResult> } {
  const tokenNames = serviceAccountTokenNames(p.names);
  const rootCa = Buffer.from(p.rootCaPem).toString('base64');

  /** The account if it exists with `uid` (any uid when `uid` is empty); read live on a cache miss when asked. */
  const getAccount = async (namespace: string, name: string, uid: string, live: boolean): Promise<Result<Account | undefined, string>> => {
    let account = p.accounts.get(namespace, name) as Account | undefined;
    if (account === undefined && live) {
      const got = await p.registry.store.get(p.accountDef, namespace, name);
      if (!got.ok && got.error.code !== 404) return fail(got.error.message ?? 'reading the service account failed');
      account = got.ok ? (got.value as Account) : undefined;
    }
    if (account === undefined || (uid !== '' && account.metadata?.uid !== uid)) return ok(undefined);
    return ok(account);
  };

  /** True when `secret` is a token of `account` (kube's IsServiceAccountToken). */
  const isTokenOf = (secret: Secret, account: { name: string; uid: string }): boolean => {
    if (secret.type !== tokenNames.type) return false;
    const annotations = secret.metadata?.annotations ?? {};
    if (annotations[tokenNames.nameAnnotation] !== account.name) return false;
    const uid = annotations[tokenNames.uidAnnotation] ?? '';
    return uid === '' || uid === account.uid;
  };

  const deleteToken = async (namespace: string, name: string, uid: string): Promise<string | undefined> => {
    const deleted = await deleteObject(p.registry, p.secretDef, namespace, name, loopbackContext(p.registry.names, 'controller-manager'), uid === '' ? undefined : { uid });
    if (deleted.ok || deleted.error.code === 404 || deleted.error.code === 409) return undefined;
    return `deleting token ${namespace}/${name}: ${deleted.error.message ?? 'failed'}`;
  };

  /**
   * Writes `change` to the stored account, read live and written again on conflicts (client-go's RetryOnConflict:
   * the workers of this controller may change one account at once). `change` answers false for no write.
   */
  const updateAccount = async (namespace: string, name: string, uid: string, change: (a: Account) => boolean): Promise<string | undefined> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const got = await p.registry.store.get(p.accountDef, namespace, name);
      if (!got.ok) return got.error.code === 404 ? undefined : got.error.message ?? 'reading the service account failed';
      if (uid !== '' && got.value.metadata?.uid !== uid) return undefined;
      const next = structuredClone(got.value) as Account;
      if (!change(next)) return undefined;
      const updated = await updateObject(p.registry, p.accountDef, '', next, got.value, loopbackContext(p.registry.names, 'controller-manager'));
      if (updated.ok || updated.error.code === 404) return undefined;
      if (!updated.conflict) return `updating service account ${namespace}/${name}: ${updated.error.message ?? 'failed'}`;
    }
    return `updating service account ${namespace}/${name}: too many conflicting writes`;
  };

  const references = (a: Account, secretName: string): boolean => (a.secrets ?? []).some((s) => s?.name === secretName);

  /**
   * The token Secret replacing the deleted one `replaced` (its uid): named `<account>-token-<5 characters>` from that
   * uid, so a retried sync finds the replacement it made instead of making another. Created filled; its name, or
   * undefined when its namespace is going (nothing to replace then), or an error.
   */
  const ensureReplacement = async (account: Account, replaced: string): Promise<Result<string | undefined, string>> => {
    const namespace = account.metadata?.namespace ?? '';
    const accountName = account.metadata?.name ?? '';
    const accountUid = account.metadata?.uid ?? '';
    const name = `${accountName}-token-${suffixOf(replaced)}`.slice(-253);
    const token = await p.issuer.issueLegacy(namespace, { name: accountName, uid: accountUid }, name);
    const secret: Secret = {
      apiVersion: 'v1', kind: 'Secret', type: tokenNames.type,
      metadata: { name, namespace, annotations: { [tokenNames.nameAnnotation]: accountName, [tokenNames.uidAnnotation]: accountUid } },
      data: { token: Buffer.from(token).toString('base64'), namespace: Buffer.from(namespace).toString('base64'), ...(rootCa === '' ? {} : { 'ca.crt': rootCa }) },
    };
    const created = await createObject(p.registry, p.secretDef, secret, loopbackContext(p.registry.names, 'controller-manager'));
    if (created.ok || created.error.reason === 'AlreadyExists') return ok(name);
    if (ignorableCreateFailure(created.error)) return ok(undefined);
    return fail(`creating a replacement token for ${namespace}/${accountName}: ${created.error.message ?? 'failed'}`);
  };

  /** Fills a token Secret of an existing account (kube's generateTokenIfNeeded), working on the stored copy. */
  const fill = async (account: Account, cached: Secret): Promise<SyncResult> => {
    const namespace = cached.metadata?.namespace ?? '';
    const name = cached.metadata?.name ?? '';
    const accountName = account.metadata?.name ?? '';
    const accountUid = account.metadata?.uid ?? '';
    const needs = (s: Secret) => ({
      ca: rootCa !== '' && s.data?.['ca.crt'] !== rootCa,
      token: (s.data?.['token'] ?? '') === '',
      namespace: (s.data?.['namespace'] ?? '') === '',
      uid: s.metadata?.annotations?.[tokenNames.uidAnnotation] !== accountUid,
    });
    const wanted = needs(cached);
    if (wanted.ca || wanted.token || wanted.namespace || wanted.uid) {
      const got = await p.registry.store.get(p.secretDef, namespace, name);
      if (!got.ok) return got.error.code === 404 ? done : retry(`reading token ${namespace}/${name}: ${got.error.message ?? 'failed'}`);
      // A newer state is on its way through the informer; that event syncs again.
      if (got.value.metadata?.resourceVersion !== cached.metadata?.resourceVersion) return done;
      const live = structuredClone(got.value) as Secret;
      const now = needs(live);
      const data = (live.data ??= {});
      if (now.ca) data['ca.crt'] = rootCa;
      if (now.namespace) data['namespace'] = Buffer.from(namespace).toString('base64');
      if (now.token) data['token'] = Buffer.from(await p.issuer.issueLegacy(namespace, { name: accountName, uid: accountUid }, name)).toString('base64');
      live.metadata = { ...live.metadata, annotations: { ...live.metadata?.annotations, [tokenNames.nameAnnotation]: accountName, [tokenNames.uidAnnotation]: accountUid } };
      const updated = await updateObject(p.registry, p.secretDef, '', live, got.value, loopbackContext(p.registry.names, 'controller-manager'));
      if (!updated.ok && updated.error.code !== 404 && !updated.conflict) return retry(`filling token ${namespace}/${name}: ${updated.error.message ?? 'failed'}`);
    }
    if (references(account, name)) return done;
    const failed = await updateAccount(namespace, accountName, accountUid, (a) => {
      if (references(a, name)) return false;
      a.secrets = [...(a.secrets ?? []), { name }];
      return true;
    });
    return failed === undefined ? done : retry(failed);
  };

  return {
    async syncAccount(key) {
      const [namespace, name, uid] = JSON.parse(key) as AccountKey;
      const account = await getAccount(namespace, name, uid, false);
      if (!account.ok) return retry(account.error);
      if (account.value !== undefined) return done;
      const failures: string[] = [];
      for (const s of p.secrets.listIn(namespace) as Secret[]) {
        if (!isTokenOf(s, { name, uid })) continue;
        const failed = await deleteToken(namespace, s.metadata?.name ?? '', s.metadata?.uid ?? '');
        if (failed !== undefined) failures.push(failed);
      }
      return failures.length === 0 ? done : retry(failures.join('; '));
    },
    async syncSecret(key) {
      const [namespace, name, uid, accountName, accountUid] = JSON.parse(key) as SecretKey;
      const cached = p.secrets.get(namespace, name) as Secret | undefined;
      const secret = cached !== undefined && cached.metadata?.uid === uid ? cached : undefined;
      if (secret === undefined) {
        const account = await getAccount(namespace, accountName, accountUid, false);
        if (!account.ok) return retry(account.error);
        if (account.value === undefined || !references(account.value, name)) return done;
        const replacement = await ensureReplacement(account.value, uid);
        if (!replacement.ok) return retry(replacement.error);
        const replacementName = replacement.value;
        const failed = await updateAccount(namespace, accountName, account.value.metadata?.uid ?? '', (a) => {
          if (!references(a, name)) return false;
          const kept = (a.secrets ?? []).filter((s) => s?.name !== name);
          a.secrets = replacementName === undefined || references(a, replacementName) ? kept : [...kept, { name: replacementName }];
          return true;
        });
        return failed === undefined ? done : retry(failed);
      }
      const account = await getAccount(namespace, accountName, accountUid, true);
      if (!account.ok) return retry(account.error);
      if (account.value === undefined) {
        const failed = await deleteToken(namespace, name, uid);
        return failed === undefined ? done : retry(failed);
      }
      return fill(account.value, secret);
    },
  };
}

/** Starts the controller. */
export function startTokenController(context: ControllerContext): Controller {
  const { registry, names } = context;
  const issuer = required(context.config?.legacyTokenIssuer, 'serviceaccount-token', 'a token issuer');
  const rootCaPem = context.config?.rootCaPem ?? '';
  const secretDef = registry.lookup('', 'v1', 'secrets');
  const accountDef = registry.lookup('', 'v1', 'serviceaccounts');
  const tokenNames = serviceAccountTokenNames(names);
  return runController('serviceaccount-token', context, (informers) => {
    if (secretDef === undefined || accountDef === undefined) return { loops: [] };
    const secrets = informers.informerFor(secretDef);
    const accounts = informers.informerFor(accountDef);
    const syncs = tokenControllerSyncs({ registry, names, secretDef, accountDef, secrets, accounts, issuer, rootCaPem });
    // kube's defaults: 5 workers each; a failed token sync retries after 5 ms growing to 5 minutes.
    const accountQueue = createWorkQueue();
    const secretQueue = createWorkQueue();
    return {
      handlers: [
        {
          informer: accounts,
          listener: (_change, a) => accountQueue.add(JSON.stringify([a.metadata?.namespace ?? '', a.metadata?.name ?? '', a.metadata?.uid ?? ''] satisfies AccountKey)),
        },
        {
          informer: secrets,
          listener(_change, s) {
            if ((s as Secret).type !== tokenNames.type) return;
            const annotations = s.metadata?.annotations ?? {};
            secretQueue.add(JSON.stringify([
              s.metadata?.namespace ?? '', s.metadata?.name ?? '', s.metadata?.uid ?? '',
              annotations[tokenNames.nameAnnotation] ?? '', annotations[tokenNames.uidAnnotation] ?? '',
            ] satisfies SecretKey));
          },
        },
      ],
      loops: [
        { queue: accountQueue, sync: syncs.syncAccount, workers: 5 },
        { queue: secretQueue, sync: syncs.syncSecret, workers: 5 },
      ],
    };
  });
}
