/**
 * The Python client (Debian's `python3-kubernetes`, run with `/usr/bin/python3`) against the k8s flavour, unchanged:
 * kubeconfigs with a certificate and a token, version and discovery, typed CRUD with selectors and pages, the patch
 * types its typed methods choose (and the ones a content type picks), server-side apply, status and scale,
 * propagation policies, `watch.Watch().stream` with resume, bookmarks and the server ending its watches, errors as
 * `ApiException` with kube's Status, `CustomObjectsApi` on a CRD, access reviews, the dynamic client, and 410
 * Expired. Each scenario of `python-client-suite.py` runs in its own Python process; the file skips, saying so, when
 * `/usr/bin/python3 -c 'import kubernetes'` fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { serverPackageDir } from '@svc-apiserver/testing/launch-server';
import { clientClusterForFile, historySeconds, type ClientCluster } from './client-cluster.js';

const python = '/usr/bin/python3';
const suite = join(serverPackageDir, 'src', 'e2e', 'clients', 'python-client-suite.py');

/** Why the Python client cannot run here, or undefined when it can. */
function pythonMissing(): string | undefined {
  const probe = spawnSync(python, ['-c', 'import kubernetes'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error !== undefined) return `the Python client is not installed: ${python} cannot run (${probe.error.message})`;
  if (probe.status !== 0) return `the Python client is not installed: ${python} -c 'import kubernetes' failed: ${probe.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

const missing = pythonMissing();
const cluster = missing === undefined ? clientClusterForFile('python-client') : undefined;

/** Runs one scenario of the suite; its output is the failure message. */
function scenario(name: string, c: ClientCluster): Promise<{ code: number; output: string }> {
  const env = {
    ...process.env,
    SUITE_ADMIN_KUBECONFIG: c.adminKubeconfig, SUITE_USER_KUBECONFIG: c.userKubeconfig, SUITE_NAMESPACE: c.namespace,
    SUITE_OTHER_NAMESPACE: c.otherNamespace, SUITE_USER: c.user, SUITE_START_RV: c.startResourceVersion,
    SUITE_HISTORY_SECONDS: String(historySeconds),
  };
  return new Promise((resolve) => {
    execFile(python, [suite, name], { env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: `${stdout}${stderr}` });
    });
  });
}

const scenarios: [string, string][] = [
  ['discovery', 'kubeconfigs with a client certificate and a token load; version, API versions, groups and resources'],
  ['crud', 'typed CRUD as the token user: create, read, list by selectors and in pages, replace, dry run, delete, delete collection'],
  ['patches', 'typed patches: a list body as a JSON patch, an object as a strategic merge patch, a merge patch by content type'],
  ['server_side_apply', 'server-side apply: managers, a conflict as a 409 with its causes, force, the dynamic client\'s server_side_apply'],
  ['status_and_scale', 'status and scale subresources: status only through /status, scale reads and writes replicas'],
  ['delete_propagation', 'delete with propagation: foreground, background and orphan'],
  ['watch', 'watch.Watch().stream: changes in order, resumed from one of them, a bookmark, carried across the server ending its watches'],
  ['errors', 'errors as ApiException with kube\'s Status in its body: 404, 409, 422 with causes, 403'],
  ['custom_objects', 'CustomObjectsApi on a CRD: create, get, list, merge, JSON and apply patches, status, watch, delete'],
  ['access_review', 'SelfSubjectAccessReview and SelfSubjectRulesReview as the token user'],
  ['dynamic', 'the dynamic client walks discovery: core, grouped and custom kinds; utils.create_from_yaml'],
  ['expired', '410 Expired for a compacted resourceVersion reaches the stream as an ApiException; a new list and watch go on'],
];

for (const [name, title] of scenarios) {
  test(`Python client: ${title}`, { skip: missing ?? false }, async () => {
    const r = await scenario(name, cluster!());
    assert.equal(r.code, 0, r.output);
    assert.equal(r.output.trim().split('\n').at(-1), 'ok', r.output);
  });
}
