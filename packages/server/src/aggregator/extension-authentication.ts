/**
 * The `extension-apiserver-authentication` ConfigMap in the system namespace, published as kube-apiserver's
 * client-CA registration hook publishes it, so extension API servers can verify their callers: `client-ca-file`
 * (the CAs of client certificates) and the request-header settings of the front proxy — `requestheader-client-ca-file`,
 * `requestheader-username-headers`, `requestheader-group-headers`, `requestheader-extra-headers-prefix` and
 * `requestheader-allowed-names`, the lists as JSON arrays. Written at start (created or brought up to date) and
 * retried until it is; its readyz check is `poststarthook/start-extension-apiserver-authentication`.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { runPostStartHook, type PostStartHook } from '../controllers/post-start-hook.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { createObject } from '../registry/operations/create-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { FrontProxy } from './front-proxy.js';

/** The ConfigMap's name. */
export const extensionAuthenticationConfigMap = 'extension-apiserver-authentication';

/** What is published. */
export interface ExtensionAuthentication {
  /** PEM CAs of client certificates (read when the hook runs: the generated CA exists once the server serves). */
  clientCa(): Promise<string>;
  readonly frontProxy: FrontProxy;
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeadersPrefix: readonly string[];
}

/** The ConfigMap's data. */
export async function extensionAuthenticationData(auth: ExtensionAuthentication): Promise<Record<string, string>> {
  const data: Record<string, string> = { 'client-ca-file': await auth.clientCa() };
  if (auth.frontProxy.caPem !== '') {
    data['requestheader-client-ca-file'] = auth.frontProxy.caPem;
    data['requestheader-username-headers'] = JSON.stringify(auth.usernameHeaders.length > 0 ? auth.usernameHeaders : ['X-Remote-User']);
    data['requestheader-group-headers'] = JSON.stringify(auth.groupHeaders.length > 0 ? auth.groupHeaders : ['X-Remote-Group']);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(auth.extraHeadersPrefix.length > 0 ? auth.extraHeadersPrefix : ['X-Remote-Extra-']);
    data['requestheader-allowed-names'] = JSON.stringify(auth.frontProxy.allowedNames);
  }
  return data;
}

/** Starts publishing. */
export function publishExtensionAuthentication(registry: Registry, names: Names, auth: ExtensionAuthentication, retryMs = 1000): PostStartHook & { name: string } {
  const namespace = names.name('systemNamespace');
  const op = loopbackContext(registry.names, 'apiserver');
  const hook = runPostStartHook(async () => {
    const def = registry.lookup('', 'v1', 'configmaps');
    if (def === undefined) return undefined;
    const data = await extensionAuthenticationData(auth);
    const got = await registry.store.get(def, namespace, extensionAuthenticationConfigMap);
    if (!got.ok && got.error.code !== 404) return `reading ${extensionAuthenticationConfigMap}: ${got.error.message ?? 'failed'}`;
    if (!got.ok) {
      const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: extensionAuthenticationConfigMap, namespace }, data };
      const made = await createObject(registry, def, object, op);
      return made.ok ? undefined : `creating ${extensionAuthenticationConfigMap}: ${made.error.message ?? 'failed'}`;
    }
    if (JSON.stringify(got.value['data']) === JSON.stringify(data)) return undefined;
    const updated = await updateObject(registry, def, '', { ...got.value, data }, got.value, op);
    return updated.ok ? undefined : `updating ${extensionAuthenticationConfigMap}: ${updated.error.message ?? 'failed'}`;
  }, retryMs);
  return { ...hook, name: 'poststarthook/start-extension-apiserver-authentication' };
}
