/**
 * `@kubernetes/client-node` 1.4 against the k8s flavour, unchanged, as its users drive it every day: kubeconfigs
 * with a client certificate and a bearer token, the typed APIs (create, read, list with selectors and pages,
 * replace, the three patch types through `PatchStrategy` and `setHeaderOptions`, server-side apply, delete with
 * propagation), status and scale subresources, `KubernetesObjectApi`, `Watch` with resume and bookmarks,
 * `makeInformer`, errors as `ApiException` with kube's Status, `CustomObjectsApi` on a CRD, access reviews, version
 * and discovery, and 410 Expired for a compacted resourceVersion (the raw watch's ERROR event, the informer's
 * relist).
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiException, ApiextensionsV1Api, ApisApi, AppsV1Api, AuthorizationV1Api, CoreApi, CoreV1Api, CustomObjectsApi, KubeConfig,
  KubernetesObjectApi, PatchStrategy, VersionApi, Watch, makeInformer, setHeaderOptions,
  type KubernetesObject, type V1ConfigMap, type V1Deployment,
} from '@kubernetes/client-node';
import { eventually } from '../http.js';
import { clientClusterForFile, historySeconds, widgetGroup, widgetPlural } from './client-cluster.js';

const cluster = clientClusterForFile('node-client');
const admin = new KubeConfig();
const user = new KubeConfig();
let ns = '';

// The kubeconfigs are read as the first test starts (node's root hooks do not wait for one another).
beforeEach(() => {
  if (ns !== '') return;
  admin.loadFromFile(cluster().adminKubeconfig);
  user.loadFromFile(cluster().userKubeconfig);
  ns = cluster().namespace;
});

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

/** The kube Status an ApiException carries (client-node hands the body over as text). */
interface StatusBody {
  kind: string;
  status: string;
  reason: string;
  code: number;
  message: string;
  details?: { name?: string; group?: string; kind?: string; causes?: { reason: string; field: string; message: string }[] };
}

/** Runs `f`, which must fail with an ApiException of `code`; returns the Status it carries. */
async function refused(code: number, f: () => Promise<unknown>): Promise<StatusBody> {
  try {
    await f();
  } catch (e) {
    assert.ok(e instanceof ApiException, `an ApiException, got ${String(e)}`);
    assert.equal(e.code, code, String(e.body));
    const status = JSON.parse(String(e.body)) as StatusBody;
    assert.equal(status.kind, 'Status');
    assert.equal(status.status, 'Failure');
    assert.equal(status.code, code);
    return status;
  }
  assert.fail(`expected ${code}`);
}

function deployment(name: string, image = 'nginx:1.25', replicas = 1): V1Deployment {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] } },
    },
  };
}

test('kubeconfigs with a client certificate and a token load; version, API versions, groups and resources are discovered', async () => {
  assert.equal(admin.getCurrentUser()?.certData !== undefined || admin.getCurrentUser()?.certFile !== undefined, true, 'admin: client certificate');
  assert.equal(user.getCurrentUser()?.token !== undefined, true, 'user: bearer token');
  assert.equal(user.getContextObject(user.getCurrentContext())?.namespace, ns);

  const version = await user.makeApiClient(VersionApi).getCode();
  assert.equal(version.major, '1');
  assert.equal(version.minor, '27');
  assert.match(version.gitVersion, /^v1\.27\.\d+/);

  assert.deepEqual((await user.makeApiClient(CoreApi).getAPIVersions()).versions, ['v1']);
  const groups = (await user.makeApiClient(ApisApi).getAPIVersions()).groups;
  const apps = groups.find((g) => g.name === 'apps');
  assert.equal(apps?.preferredVersion?.groupVersion, 'apps/v1');
  for (const g of ['coordination.k8s.io', 'apiextensions.k8s.io', 'rbac.authorization.k8s.io', 'networking.k8s.io']) {
    assert.ok(groups.some((x) => x.name === g), `group ${g}`);
  }
  assert.ok(!groups.some((g) => g.name.endsWith('svc.io')), 'no svc.io group in the k8s flavour');

  const appsResources = await user.makeApiClient(AppsV1Api).getAPIResources();
  assert.equal(appsResources.groupVersion, 'apps/v1');
  const deployments = appsResources.resources.find((r) => r.name === 'deployments');
  assert.equal(deployments?.kind, 'Deployment');
  assert.equal(deployments?.namespaced, true);
  assert.deepEqual(deployments?.shortNames, ['deploy']);
  assert.ok(deployments?.verbs.includes('patch'));
  const scale = appsResources.resources.find((r) => r.name === 'deployments/scale');
  assert.deepEqual([scale?.group, scale?.version, scale?.kind], ['autoscaling', 'v1', 'Scale']);
  const core = await user.makeApiClient(CoreV1Api).getAPIResources();
  assert.deepEqual(core.resources.find((r) => r.name === 'configmaps')?.shortNames, ['cm']);
});

test('typed CRUD as the token user: create, read, list by label and field selectors and in pages, replace, delete, dry run', async () => {
  const core = user.makeApiClient(CoreV1Api);
  const names = ['crud-0', 'crud-1', 'crud-2', 'crud-3', 'crud-4'];
  for (const [i, name] of names.entries()) {
    const made = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name, labels: { suite: 'crud', tier: i % 2 === 0 ? 'even' : 'odd', index: String(i) } }, data: { i: String(i) } } });
    assert.equal(made.metadata?.name, name);
    assert.ok(made.metadata?.creationTimestamp instanceof Date, 'timestamps decode as dates');
  }
  const read = await core.readNamespacedConfigMap({ name: 'crud-1', namespace: ns });
  assert.deepEqual(read.data, { i: '1' });
  assert.match(read.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);

  const byLabel = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=crud,tier=odd' });
  assert.deepEqual(byLabel.items.map((c) => c.metadata?.name), ['crud-1', 'crud-3']);
  const setBased = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=crud,tier in (even),index notin (2)' });
  assert.deepEqual(setBased.items.map((c) => c.metadata?.name), ['crud-0', 'crud-4']);
  const byField = await core.listNamespacedConfigMap({ namespace: ns, fieldSelector: 'metadata.name=crud-2' });
  assert.deepEqual(byField.items.map((c) => c.metadata?.name), ['crud-2']);
  assert.match(byField.metadata?.resourceVersion ?? '', /^\d+$/);

  // Pages of two: every object once, in name order; remainingItemCount on every page but the last.
  const all = (await core.listNamespacedConfigMap({ namespace: ns })).items.map((c) => c.metadata?.name ?? '');
  const paged: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await core.listNamespacedConfigMap({ namespace: ns, limit: 2, ...(token === undefined ? {} : { _continue: token }) });
    pages += 1;
    paged.push(...page.items.map((c) => c.metadata?.name ?? ''));
    token = page.metadata?._continue;
    if (token !== undefined) assert.equal(page.metadata?.remainingItemCount, all.length - paged.length);
  } while (token !== undefined);
  assert.deepEqual(paged, all);
  assert.equal(pages, Math.ceil(all.length / 2));
  // resourceVersion=0 is served from the watch cache, which ignores the limit.
  const cached = await core.listNamespacedConfigMap({ namespace: ns, resourceVersion: '0', limit: 2 });
  assert.deepEqual([cached.items.map((c) => c.metadata?.name), cached.metadata?._continue], [all, undefined]);

  const stale: V1ConfigMap = { ...read, data: { i: 'stale' } };
  await core.replaceNamespacedConfigMap({ name: 'crud-1', namespace: ns, body: { ...read, data: { i: 'one' } } });
  const conflict = await refused(409, () => core.replaceNamespacedConfigMap({ name: 'crud-1', namespace: ns, body: stale }));
  assert.equal(conflict.reason, 'Conflict');
  assert.match(conflict.message, /the object has been modified/);

  const dry = await core.createNamespacedConfigMap({ namespace: ns, dryRun: 'All', body: { metadata: { name: 'crud-dry' } } });
  assert.equal(dry.metadata?.name, 'crud-dry');
  await refused(404, () => core.readNamespacedConfigMap({ name: 'crud-dry', namespace: ns }));

  const deleted = await core.deleteNamespacedConfigMap({ name: 'crud-4', namespace: ns });
  assert.equal(deleted.status, 'Success');
  assert.equal(deleted.details?.name, 'crud-4');
  await refused(404, () => core.readNamespacedConfigMap({ name: 'crud-4', namespace: ns }));
});

test('patches through PatchStrategy: JSON patch, merge patch (lists replaced), strategic merge (containers merged by name)', async () => {
  const appsApi = user.makeApiClient(AppsV1Api);
  await appsApi.createNamespacedDeployment({ namespace: ns, body: deployment('patched') });
  const json = await appsApi.patchNamespacedDeployment({
    name: 'patched', namespace: ns,
    body: [{ op: 'replace', path: '/spec/replicas', value: 2 }, { op: 'add', path: '/metadata/labels/patched', value: 'json' }],
  }, jsonPatch);
  assert.equal(json.spec?.replicas, 2);
  assert.equal(json.metadata?.labels?.['patched'], 'json');
  assert.equal(json.metadata?.generation, 2);

  const sidecar = { name: 'sidecar', image: 'busybox:1.36' };
  const smp = await appsApi.patchNamespacedDeployment({ name: 'patched', namespace: ns, body: { spec: { template: { spec: { containers: [sidecar] } } } } }, strategic);
  assert.deepEqual(smp.spec?.template.spec?.containers.map((c) => c.name), ['sidecar', 'web']);
  const web = smp.spec?.template.spec?.containers.find((c) => c.name === 'web');
  assert.equal(web?.imagePullPolicy, 'IfNotPresent', 'defaults kept on the merged container');

  const mergePatched = await appsApi.patchNamespacedDeployment({ name: 'patched', namespace: ns, body: { spec: { template: { spec: { containers: [sidecar] } } } } }, merge);
  assert.deepEqual(mergePatched.spec?.template.spec?.containers.map((c) => c.name), ['sidecar'], 'a merge patch replaces the list');
  assert.equal(mergePatched.spec?.template.spec?.containers[0]?.terminationMessagePath, '/dev/termination-log');

  const badPatch = await refused(422, () => appsApi.patchNamespacedDeployment({ name: 'patched', namespace: ns, body: { spec: { replicas: -1 } } }, merge));
  assert.equal(badPatch.reason, 'Invalid');
  assert.deepEqual(badPatch.details?.causes?.map((c) => c.field), ['spec.replicas']);
});

test('server-side apply with PatchStrategy.ServerSideApply: managers, a conflict as a 409 with its causes, force', async () => {
  const appsApi = user.makeApiClient(AppsV1Api);
  const applied = await appsApi.patchNamespacedDeployment({ name: 'applied', namespace: ns, fieldManager: 'deployer', body: deployment('applied') }, apply);
  assert.equal(applied.metadata?.managedFields?.[0]?.manager, 'deployer');
  assert.equal(applied.metadata?.managedFields?.[0]?.operation, 'Apply');
  assert.equal(applied.spec?.template.spec?.containers[0]?.ports?.[0]?.protocol, 'TCP');

  const scaled = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'applied' }, spec: { replicas: 3 } };
  const conflict = await refused(409, () => appsApi.patchNamespacedDeployment({ name: 'applied', namespace: ns, fieldManager: 'autoscaler', body: scaled }, apply));
  assert.equal(conflict.reason, 'Conflict');
  assert.deepEqual(conflict.details?.causes?.map((c) => [c.reason, c.field]), [['FieldManagerConflict', '.spec.replicas']]);
  assert.match(conflict.message, /Apply failed with 1 conflict: conflict with "deployer": \.spec\.replicas/);

  const forced = await appsApi.patchNamespacedDeployment({ name: 'applied', namespace: ns, fieldManager: 'autoscaler', force: true, body: scaled }, apply);
  assert.equal(forced.spec?.replicas, 3);
  assert.deepEqual(forced.metadata?.managedFields?.map((m) => m.manager).sort(), ['autoscaler', 'deployer']);
  // The first manager applies again without replicas: the field stays, owned by the autoscaler.
  const { replicas: _r, ...specWithout } = deployment('applied', 'nginx:1.26').spec!;
  const again = await appsApi.patchNamespacedDeployment({ name: 'applied', namespace: ns, fieldManager: 'deployer', body: { ...deployment('applied', 'nginx:1.26'), spec: specWithout } }, apply);
  assert.equal(again.spec?.replicas, 3);
  assert.equal(again.spec?.template.spec?.containers[0]?.image, 'nginx:1.26');
});

test('KubernetesObjectApi: any kind through discovery — create, read, list, patch (merge and apply), delete', async () => {
  const objects = KubernetesObjectApi.makeApiClient(user);
  const cm: KubernetesObject & { data?: Record<string, string> } = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generic', namespace: ns, labels: { suite: 'generic' } }, data: { a: '1' } };
  await objects.create(cm);
  const read = await objects.read<typeof cm>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generic', namespace: ns } });
  assert.deepEqual(read.data, { a: '1' });
  const list = await objects.list('v1', 'ConfigMap', ns, undefined, undefined, undefined, undefined, 'suite=generic');
  assert.deepEqual(list.items.map((o) => o.metadata?.name), ['generic']);
  const patched = await objects.patch<typeof cm>({ ...cm, data: { b: '2' } }, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
  assert.deepEqual(patched.data, { a: '1', b: '2' });
  const dep = await objects.patch<V1Deployment>(deployment('generic'), undefined, undefined, 'generic-apply', true, PatchStrategy.ServerSideApply);
  assert.equal(dep.metadata?.managedFields?.[0]?.manager, 'generic-apply');
  const gone = await objects.delete(cm);
  assert.equal(gone.status, 'Success');
  await objects.delete(deployment('generic'));
  await refused(404, () => objects.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'generic', namespace: ns } }));
});

test('status and scale subresources: status written only through /status, generation moved only by spec, scale reads and writes replicas', async () => {
  const appsApi = user.makeApiClient(AppsV1Api);
  const created = await appsApi.createNamespacedDeployment({ namespace: ns, body: { ...deployment('status'), status: { replicas: 9 } } });
  assert.equal(created.status?.replicas, undefined, 'a create drops the status sent');
  const withStatus = await appsApi.readNamespacedDeploymentStatus({ name: 'status', namespace: ns });
  const replaced = await appsApi.replaceNamespacedDeploymentStatus({
    name: 'status', namespace: ns,
    body: { ...withStatus, spec: { ...withStatus.spec!, replicas: 5 }, status: { replicas: 1, readyReplicas: 1, observedGeneration: 1 } },
  });
  assert.equal(replaced.status?.readyReplicas, 1);
  assert.equal(replaced.spec?.replicas, 1, '/status keeps the spec');
  assert.equal(replaced.metadata?.generation, 1);
  const patched = await appsApi.patchNamespacedDeploymentStatus({ name: 'status', namespace: ns, body: { status: { availableReplicas: 1 } } }, merge);
  assert.deepEqual([patched.status?.replicas, patched.status?.availableReplicas], [1, 1]);
  const main = await appsApi.patchNamespacedDeployment({ name: 'status', namespace: ns, body: { status: { replicas: 7 } } }, merge);
  assert.equal(main.status?.replicas, 1, 'the main resource keeps the status');

  const scale = await appsApi.readNamespacedDeploymentScale({ name: 'status', namespace: ns });
  assert.deepEqual([scale.kind, scale.apiVersion, scale.spec?.replicas, scale.status?.replicas, scale.status?.selector], ['Scale', 'autoscaling/v1', 1, 1, 'app=status']);
  const rescaled = await appsApi.patchNamespacedDeploymentScale({ name: 'status', namespace: ns, body: { spec: { replicas: 4 } } }, merge);
  assert.equal(rescaled.spec?.replicas, 4);
  const after = await appsApi.readNamespacedDeployment({ name: 'status', namespace: ns });
  assert.deepEqual([after.spec?.replicas, after.metadata?.generation], [4, 2]);
  const replacedScale = await appsApi.replaceNamespacedDeploymentScale({ name: 'status', namespace: ns, body: { ...rescaled, spec: { replicas: 2 } } });
  assert.equal(replacedScale.spec?.replicas, 2);
});

test('delete with propagation: foreground holds the owner until its dependents are gone, background removes them after, orphan keeps them', async () => {
  const appsApi = user.makeApiClient(AppsV1Api);
  const core = user.makeApiClient(CoreV1Api);
  const withDependent = async (name: string, finalizers: string[] = []): Promise<void> => {
    const owner = await appsApi.createNamespacedDeployment({ namespace: ns, body: deployment(name) });
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        metadata: {
          name: `${name}-dependent`, finalizers,
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: owner.metadata!.uid!, blockOwnerDeletion: true }],
        },
      },
    });
  };
  const gone = (read: () => Promise<unknown>) => eventually(async () => {
    try {
      await read();
      return false;
    } catch (e) {
      return e instanceof ApiException && e.code === 404;
    }
  });

  // The dependent's own finalizer keeps it, and so the owner, until the test lets go.
  await withDependent('foreground', ['example.com/hold']);
  await appsApi.deleteNamespacedDeployment({ name: 'foreground', namespace: ns, propagationPolicy: 'Foreground' });
  const marked = await appsApi.readNamespacedDeployment({ name: 'foreground', namespace: ns });
  assert.ok(marked.metadata?.deletionTimestamp instanceof Date);
  assert.deepEqual(marked.metadata?.finalizers, ['foregroundDeletion']);
  assert.equal(marked.metadata?.generation, 2, 'marking for deletion moves the generation');
  assert.ok(await eventually(async () => (await core.readNamespacedConfigMap({ name: 'foreground-dependent', namespace: ns })).metadata?.deletionTimestamp !== undefined), 'dependent being deleted');
  await appsApi.readNamespacedDeployment({ name: 'foreground', namespace: ns });
  await core.patchNamespacedConfigMap({ name: 'foreground-dependent', namespace: ns, body: [{ op: 'remove', path: '/metadata/finalizers' }] }, jsonPatch);
  assert.ok(await gone(() => core.readNamespacedConfigMap({ name: 'foreground-dependent', namespace: ns })), 'dependent deleted');
  assert.ok(await gone(() => appsApi.readNamespacedDeployment({ name: 'foreground', namespace: ns })), 'owner deleted after it');

  await withDependent('background');
  const status = await appsApi.deleteNamespacedDeployment({ name: 'background', namespace: ns, body: { propagationPolicy: 'Background' } });
  assert.equal(status.status, 'Success');
  await refused(404, () => appsApi.readNamespacedDeployment({ name: 'background', namespace: ns }));
  assert.ok(await gone(() => core.readNamespacedConfigMap({ name: 'background-dependent', namespace: ns })), 'dependent collected');

  await withDependent('orphan');
  await appsApi.deleteNamespacedDeployment({ name: 'orphan', namespace: ns, propagationPolicy: 'Orphan' });
  assert.ok(await gone(() => appsApi.readNamespacedDeployment({ name: 'orphan', namespace: ns })), 'owner deleted');
  assert.ok(await eventually(async () => (await core.readNamespacedConfigMap({ name: 'orphan-dependent', namespace: ns })).metadata?.ownerReferences === undefined), 'dependent orphaned');
});

/** Watch events as (type, name, resourceVersion), until `stop` says enough or the server ends the watch. */
async function watchEvents(
  path: string, query: Record<string, string | number | boolean>, stop: (events: [string, string, string][]) => boolean, timeoutMs = 15_000,
): Promise<{ events: [string, string, string][]; objects: unknown[]; ended: string }> {
  const events: [string, string, string][] = [];
  const objects: unknown[] = [];
  let finish: (why: string) => void = () => {};
  const ended = new Promise<string>((resolve) => {
    finish = resolve;
  });
  const controller = await new Watch(user).watch(path, query, (type, obj: KubernetesObject) => {
    events.push([type, obj.metadata?.name ?? '', obj.metadata?.resourceVersion ?? '']);
    objects.push(obj);
    if (stop(events)) finish('enough');
  }, (err) => finish(err === null ? 'closed' : `error: ${String(err)}`));
  const timer = setTimeout(() => finish('timeout'), timeoutMs);
  const why = await ended;
  clearTimeout(timer);
  controller.abort();
  return { events, objects, ended: why };
}

test('Watch: from a list\'s resourceVersion every change in order, resumed from one of them exactly the rest, a BOOKMARK before a timeout', async () => {
  const core = user.makeApiClient(CoreV1Api);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const from = (await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=watch' })).metadata!.resourceVersion!;
  const changes = (async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'watched', labels: { suite: 'watch' } } } });
    await core.patchNamespacedConfigMap({ name: 'watched', namespace: ns, body: { data: { a: '1' } } }, merge);
    await core.deleteNamespacedConfigMap({ name: 'watched', namespace: ns });
  })();
  const first = await watchEvents(path, { resourceVersion: from, labelSelector: 'suite=watch' }, (e) => e.length >= 3);
  await changes;
  assert.deepEqual(first.events.map(([type, name]) => [type, name]), [['ADDED', 'watched'], ['MODIFIED', 'watched'], ['DELETED', 'watched']]);
  const versions = first.events.map(([, , rv]) => Number(rv));
  assert.ok(versions[0]! > Number(from) && versions[0]! < versions[1]! && versions[1]! < versions[2]!, `increasing: ${versions.join(',')}`);

  const resumed = await watchEvents(path, { resourceVersion: first.events[0]![2], labelSelector: 'suite=watch', timeoutSeconds: 3 }, () => false);
  assert.deepEqual(resumed.events.map(([type]) => type), ['MODIFIED', 'DELETED'], 'only what followed the resumed-from event');
  assert.equal(resumed.ended, 'closed', 'the server ends the watch at its timeoutSeconds');

  // A change the selector filters out while the watch runs: the BOOKMARK before the timeout still moves the
  // client past it.
  // The bookmark comes 2 s before the timeout: the change has 3 s to land before it.
  const bookmarked = watchEvents(path, { resourceVersion: first.events[2]![2], labelSelector: 'suite=watch', allowWatchBookmarks: true, timeoutSeconds: 5 }, () => false);
  await new Promise((r) => setTimeout(r, 300));
  const unwatched = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'unwatched' } } });
  const { events } = await bookmarked;
  // The bookmark carries the cache's revision when it is sent: the filtered change's or, when other objects changed
  // after it (leases renew), a later one, never one the server has not reached.
  const now = Number((await core.listNamespacedConfigMap({ namespace: ns, limit: 1 })).metadata!.resourceVersion);
  assert.deepEqual(events.map(([type]) => type), ['BOOKMARK']);
  const bookmark = Number(events[0]![2]);
  const change = Number(unwatched.metadata?.resourceVersion);
  assert.ok(change <= bookmark && bookmark <= now, `a bookmark past the filtered change: ${bookmark}, change ${change}, now ${now}`);
});

test('makeInformer: the initial list fills its cache, then adds, updates and deletes arrive as callbacks', async () => {
  const core = user.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'inf-existing', labels: { suite: 'informer' } } } });
  const informer = makeInformer(user, `/api/v1/namespaces/${ns}/configmaps`, () => core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=informer' }), 'suite=informer');
  const seen: string[] = [];
  informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${(o as V1ConfigMap).data?.['v'] ?? ''}`));
  informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    assert.deepEqual(informer.list(ns).map((o) => o.metadata?.name), ['inf-existing']);
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'inf-new', labels: { suite: 'informer' } } } });
    await core.patchNamespacedConfigMap({ name: 'inf-new', namespace: ns, body: { data: { v: '2' } } }, merge);
    await core.deleteNamespacedConfigMap({ name: 'inf-existing', namespace: ns });
    assert.ok(await eventually(async () => seen.length >= 4), seen.join('; '));
    assert.deepEqual(seen, ['add inf-existing', 'add inf-new', 'update inf-new 2', 'delete inf-existing']);
    assert.deepEqual(informer.list(ns).map((o) => o.metadata?.name), ['inf-new']);
    assert.equal((informer.get('inf-new', ns) as V1ConfigMap | undefined)?.data?.['v'], '2');
  } finally {
    await informer.stop();
  }
});

test('errors reach the client as ApiException with kube\'s Status: 404 NotFound, 409 AlreadyExists, 422 Invalid with causes, 403 Forbidden', async () => {
  const core = user.makeApiClient(CoreV1Api);
  const missing = await refused(404, () => core.readNamespacedConfigMap({ name: 'absent', namespace: ns }));
  assert.deepEqual([missing.reason, missing.message, missing.details?.name, missing.details?.kind], ['NotFound', 'configmaps "absent" not found', 'absent', 'configmaps']);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'twice' } } });
  const exists = await refused(409, () => core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'twice' } } }));
  assert.deepEqual([exists.reason, exists.message], ['AlreadyExists', 'configmaps "twice" already exists']);
  const invalid = await refused(422, () => core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'Not_Valid' }, data: { 'bad key': 'x' } } }));
  assert.equal(invalid.reason, 'Invalid');
  assert.deepEqual(invalid.details?.causes?.map((c) => c.field).sort(), ['data[bad key]', 'metadata.name']);
  assert.match(invalid.message, /^ConfigMap "Not_Valid" is invalid: /);
  const forbidden = await refused(403, () => core.listNamespacedConfigMap({ namespace: cluster().otherNamespace }));
  assert.equal(forbidden.reason, 'Forbidden');
  assert.equal(forbidden.message, `configmaps is forbidden: User "${cluster().user}" cannot list resource "configmaps" in API group "" in the namespace "${cluster().otherNamespace}"`);
});

test('CustomObjectsApi on a CRD: create, get, list by label, merge, JSON and apply patches, status, watch, delete; strategic merge refused with 415', async () => {
  const extensions = admin.makeApiClient(ApiextensionsV1Api);
  const crdName = `${widgetPlural}.${widgetGroup}`;
  await extensions.createCustomResourceDefinition({
    body: {
      metadata: { name: crdName },
      spec: {
        group: widgetGroup, scope: 'Namespaced', names: { plural: widgetPlural, singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [{
          name: 'v1', served: true, storage: true, subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } } }, status: { type: 'object', properties: { phase: { type: 'string' } } } } } },
        }],
      },
    },
  });
  assert.ok(await eventually(async () => {
    const crd = await extensions.readCustomResourceDefinition({ name: crdName });
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  }), 'CRD established');

  const custom = user.makeApiClient(CustomObjectsApi);
  const where = { group: widgetGroup, version: 'v1', namespace: ns, plural: widgetPlural };
  const widget = { apiVersion: `${widgetGroup}/v1`, kind: 'Widget', metadata: { name: 'w1', labels: { color: 'blue' } }, spec: { size: 1 } };
  assert.ok(await eventually(async () => {
    try {
      await custom.createNamespacedCustomObject({ ...where, body: widget });
      return true;
    } catch (e) {
      // Served a moment after Established, as on kube.
      if (e instanceof ApiException && e.code === 404) return false;
      throw e;
    }
  }), 'created');
  const from = (await custom.listNamespacedCustomObject({ ...where })).metadata.resourceVersion as string;
  assert.deepEqual((await custom.getNamespacedCustomObject({ ...where, name: 'w1' })).spec, { size: 1 });
  const listed = await custom.listNamespacedCustomObject({ ...where, labelSelector: 'color=blue' });
  assert.deepEqual(listed.items.map((o: KubernetesObject) => o.metadata?.name), ['w1']);
  assert.deepEqual((await custom.patchNamespacedCustomObject({ ...where, name: 'w1', body: { spec: { size: 2 } } }, merge)).spec, { size: 2 });
  assert.deepEqual((await custom.patchNamespacedCustomObject({ ...where, name: 'w1', body: [{ op: 'replace', path: '/spec/size', value: 3 }] }, jsonPatch)).spec, { size: 3 });
  const applied = await custom.patchNamespacedCustomObject({ ...where, name: 'w1', fieldManager: 'widget-apply', force: true, body: { ...widget, spec: { size: 4 } } }, apply);
  assert.deepEqual(applied.spec, { size: 4 });
  const status = await custom.patchNamespacedCustomObjectStatus({ ...where, name: 'w1', body: { status: { phase: 'Ready' }, spec: { size: 9 } } }, merge);
  assert.deepEqual([status.status, status.spec], [{ phase: 'Ready' }, { size: 4 }]);
  const tooSmall = await refused(422, () => custom.patchNamespacedCustomObject({ ...where, name: 'w1', body: { spec: { size: 0 } } }, merge));
  assert.deepEqual(tooSmall.details?.causes?.map((c) => c.field), ['spec.size']);
  const smp = await refused(415, () => custom.patchNamespacedCustomObject({ ...where, name: 'w1', body: { spec: { size: 5 } } }, strategic));
  assert.equal(smp.reason, 'UnsupportedMediaType');

  const watched = await watchEvents(`/apis/${widgetGroup}/v1/namespaces/${ns}/${widgetPlural}`, { resourceVersion: from }, (e) => e.length >= 4);
  assert.deepEqual(watched.events.map(([type]) => type), ['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
  const deleted = await custom.deleteNamespacedCustomObject({ ...where, name: 'w1' });
  assert.equal((deleted as { status?: string }).status, 'Success');
  await refused(404, () => custom.getNamespacedCustomObject({ ...where, name: 'w1' }));
});

test('SelfSubjectAccessReview: the token user may edit its namespace, not another one', async () => {
  const authz = user.makeApiClient(AuthorizationV1Api);
  const review = (verb: string, resource: string, namespace: string, group = '') => authz.createSelfSubjectAccessReview({
    body: { spec: { resourceAttributes: { verb, resource, namespace, group } } },
  });
  const allowed = await review('create', 'deployments', ns, 'apps');
  assert.equal(allowed.status?.allowed, true);
  assert.match(allowed.status?.reason ?? '', /RoleBinding/);
  assert.equal((await review('patch', widgetPlural, ns, widgetGroup)).status?.allowed, true);
  assert.equal((await review('get', 'configmaps', cluster().otherNamespace)).status?.allowed, false);
  assert.equal((await review('create', 'namespaces', '')).status?.allowed, false);
});

test('410 Expired for a compacted resourceVersion: the raw watch gets an ERROR event with the Status, an informer lists again', async () => {
  const core = user.makeApiClient(CoreV1Api);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  // The informer's watch is quiet (nothing matches it) and ends every few seconds: once its resourceVersion is
  // compacted, its next watch meets 410 and it lists again.
  let lists = 0;
  const informer = makeInformer(user, path, () => {
    lists += 1;
    return core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=relist' });
  }, 'suite=relist');
  await informer.start();
  try {
    let expired: Awaited<ReturnType<typeof watchEvents>> | undefined;
    let tick = 0;
    const deadline = Date.now() + (historySeconds * 8 + 30) * 1000;
    // Writes move the store on, so the history before the suite's first resourceVersion (and the informer's) gets
    // compacted and leaves the watch cache.
    while ((expired === undefined || lists < 2) && Date.now() < deadline) {
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: `tick-${tick++}` } } });
      if (expired === undefined) {
        const w = await watchEvents(path, { resourceVersion: cluster().startResourceVersion }, () => true, 5_000);
        if (w.events[0]?.[0] === 'ERROR') expired = w;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    assert.ok(expired !== undefined, 'the first resourceVersion was compacted');
    const status = expired.objects[0] as { kind: string; code: number; reason: string; message: string };
    assert.deepEqual([status.kind, status.code, status.reason], ['Status', 410, 'Expired']);
    assert.match(status.message, new RegExp(`^too old resource version: ${cluster().startResourceVersion} \\(\\d+\\)$`));
    assert.equal(expired.events.length, 1, 'nothing after the error');
    assert.ok(lists >= 2, 'the informer listed again');
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'after-relist', labels: { suite: 'relist' } } } });
    assert.ok(await eventually(async () => informer.get('after-relist', ns) !== undefined), 'the informer watches on after its relist');
  } finally {
    await informer.stop();
  }
});
