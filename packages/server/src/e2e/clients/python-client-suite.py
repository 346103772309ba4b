"""The Python client (kubernetes, as Debian packages it) against the k8s flavour, as its users drive it.

Run by python-client.test.ts, one scenario per process:

    python3 python-client-suite.py <scenario>

with the server's facts in the environment (SUITE_ADMIN_KUBECONFIG, SUITE_USER_KUBECONFIG, SUITE_NAMESPACE,
SUITE_OTHER_NAMESPACE, SUITE_USER, SUITE_START_RV, SUITE_HISTORY_SECONDS). A scenario that returns printed "ok";
a failed check raises, with a traceback, and the process exits 1.
"""

import json
import os
import sys
import tempfile
import threading
import time

from kubernetes import client, config, dynamic, utils, watch
from kubernetes.client.rest import ApiException

ENV = os.environ
NS = ENV.get('SUITE_NAMESPACE', '')
OTHER_NS = ENV.get('SUITE_OTHER_NAMESPACE', '')
USER = ENV.get('SUITE_USER', '')
WIDGETS = ('example.com', 'v1', 'widgets')

MERGE = 'application/merge-patch+json'
APPLY = 'application/apply-patch+yaml'
JSON_PATCH = 'application/json-patch+json'


def check(condition, message):
    """A failed expectation, with what was found."""
    if not condition:
        raise AssertionError(message)


def equal(got, want, what):
    check(got == want, '%s: got %r, want %r' % (what, got, want))


def api_client(kubeconfig, content_type=None):
    """An ApiClient from a kubeconfig file; `content_type` is sent on every request (how the client picks a
    patch type other than the one it guesses: JSON patch for a list body, strategic merge for an object)."""
    api = config.new_client_from_config(config_file=kubeconfig)
    if content_type is not None:
        api.set_default_header('Content-Type', content_type)
    return api


def admin(content_type=None):
    return api_client(ENV['SUITE_ADMIN_KUBECONFIG'], content_type)


def user(content_type=None):
    return api_client(ENV['SUITE_USER_KUBECONFIG'], content_type)


def refused(code, call, *args, **kwargs):
    """Calls and expects ApiException with `code`; returns the kube Status its body holds."""
    try:
        call(*args, **kwargs)
    except ApiException as e:
        equal(e.status, code, 'status code (%s)' % e.body)
        status = json.loads(e.body)
        equal((status['kind'], status['status'], status['code']), ('Status', 'Failure', code), 'Status')
        return status
    raise AssertionError('expected %d from %s' % (code, call.__name__))


def deployment(name, image='nginx:1.25', replicas=1):
    return {
        'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': name, 'labels': {'app': name}},
        'spec': {
            'replicas': replicas, 'selector': {'matchLabels': {'app': name}},
            'template': {'metadata': {'labels': {'app': name}},
                         'spec': {'containers': [{'name': 'web', 'image': image, 'ports': [{'containerPort': 80}]}]}},
        },
    }


def eventually(probe, timeout=15, interval=0.1):
    deadline = time.time() + timeout
    while True:
        if probe():
            return True
        if time.time() > deadline:
            return False
        time.sleep(interval)


def gone(read, *args):
    def probe():
        try:
            read(*args)
            return False
        except ApiException as e:
            return e.status == 404
    return eventually(probe)


def names_of(items):
    return [i.metadata.name for i in items]


def scenario_discovery():
    """Both kubeconfigs load (a client certificate, a bearer token); version and discovery."""
    config.load_kube_config(config_file=ENV['SUITE_USER_KUBECONFIG'])
    contexts, current = config.list_kube_config_contexts(config_file=ENV['SUITE_USER_KUBECONFIG'])
    equal(current['context']['namespace'], NS, 'the user context\'s namespace')
    version = client.VersionApi().get_code()
    equal((version.major, version.minor), ('1', '27'), 'version')
    check(version.git_version.startswith('v1.27.'), version.git_version)
    for api in (admin(), user()):
        equal(client.CoreApi(api).get_api_versions().versions, ['v1'], 'core API versions')
        groups = client.ApisApi(api).get_api_versions().groups
        by_name = dict((g.name, g) for g in groups)
        equal(by_name['apps'].preferred_version.group_version, 'apps/v1', 'apps preferred version')
        for name in ('coordination.k8s.io', 'apiextensions.k8s.io', 'rbac.authorization.k8s.io', 'batch'):
            check(name in by_name, 'group %s in %s' % (name, sorted(by_name)))
        check(not any(n.endswith('svc.io') for n in by_name), 'no svc.io group')
    core = dict((r.name, r) for r in client.CoreV1Api(user()).get_api_resources().resources)
    equal(core['configmaps'].short_names, ['cm'], 'configmaps short names')
    equal((core['pods'].kind, core['pods'].namespaced), ('Pod', True), 'pods')
    apps = dict((r.name, r) for r in client.AppsV1Api(user()).get_api_resources().resources)
    equal((apps['deployments/scale'].group, apps['deployments/scale'].version, apps['deployments/scale'].kind),
          ('autoscaling', 'v1', 'Scale'), 'deployments/scale')


def scenario_crud():
    """Typed CRUD as the token user: create, read, list by selectors and in pages, replace, dry run, delete."""
    core = client.CoreV1Api(user())
    for i in range(5):
        made = core.create_namespaced_config_map(NS, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name='crud-%d' % i, labels={'suite': 'crud', 'tier': 'even' if i % 2 == 0 else 'odd'}),
            data={'i': str(i)}))
        check(made.metadata.creation_timestamp.year >= 2024, 'a creation timestamp')
    read = core.read_namespaced_config_map('crud-1', NS)
    equal(read.data, {'i': '1'}, 'data')
    equal(names_of(core.list_namespaced_config_map(NS, label_selector='suite=crud,tier=odd').items), ['crud-1', 'crud-3'], 'label selector')
    equal(names_of(core.list_namespaced_config_map(NS, label_selector='suite=crud,tier notin (odd),!missing').items),
          ['crud-0', 'crud-2', 'crud-4'], 'set-based label selector')
    equal(names_of(core.list_namespaced_config_map(NS, field_selector='metadata.name=crud-2').items), ['crud-2'], 'field selector')
    everything = names_of(core.list_namespaced_config_map(NS).items)
    paged, token, pages = [], None, 0
    while True:
        kwargs = {'_continue': token} if token else {}
        page = core.list_namespaced_config_map(NS, limit=2, **kwargs)
        pages += 1
        paged += names_of(page.items)
        token = page.metadata._continue
        if not token:
            break
        equal(page.metadata.remaining_item_count, len(everything) - len(paged), 'remainingItemCount')
    equal(paged, everything, 'pages')
    equal(pages, (len(everything) + 1) // 2, 'page count')
    # resourceVersion=0 is served from the watch cache, which ignores the limit.
    cached = core.list_namespaced_config_map(NS, resource_version='0', limit=2)
    equal((names_of(cached.items), cached.metadata._continue), (everything, None), 'resourceVersion=0 with a limit')

    read.data = {'i': 'one'}
    core.replace_namespaced_config_map('crud-1', NS, read)
    read.data = {'i': 'stale'}
    conflict = refused(409, core.replace_namespaced_config_map, 'crud-1', NS, read)
    equal(conflict['reason'], 'Conflict', 'reason')

    equal(core.create_namespaced_config_map(NS, {'metadata': {'name': 'crud-dry'}}, dry_run='All').metadata.name, 'crud-dry', 'dry run')
    refused(404, core.read_namespaced_config_map, 'crud-dry', NS)
    status = core.delete_namespaced_config_map('crud-4', NS)
    equal((status.status, status.details.name), ('Success', 'crud-4'), 'delete')
    core.delete_collection_namespaced_config_map(NS, label_selector='suite=crud,tier=odd')
    equal(names_of(core.list_namespaced_config_map(NS, label_selector='suite=crud').items), ['crud-0', 'crud-2'], 'after delete collection')


def scenario_patches():
    """The typed patch methods: a list body is a JSON patch, an object a strategic merge patch; a merge patch by
    choosing the content type."""
    apps = client.AppsV1Api(user())
    apps.create_namespaced_deployment(NS, deployment('patched'))
    patched = apps.patch_namespaced_deployment('patched', NS, [
        {'op': 'replace', 'path': '/spec/replicas', 'value': 2},
        {'op': 'add', 'path': '/metadata/labels/patched', 'value': 'json'}])
    equal((patched.spec.replicas, patched.metadata.labels['patched'], patched.metadata.generation), (2, 'json', 2), 'JSON patch')
    sidecar = {'name': 'sidecar', 'image': 'busybox:1.36'}
    smp = apps.patch_namespaced_deployment('patched', NS, {'spec': {'template': {'spec': {'containers': [sidecar]}}}})
    equal([c.name for c in smp.spec.template.spec.containers], ['sidecar', 'web'], 'strategic merge by name')
    equal(smp.spec.template.spec.containers[1].image_pull_policy, 'IfNotPresent', 'defaults kept')
    merged = client.AppsV1Api(user(MERGE)).patch_namespaced_deployment('patched', NS, {'spec': {'template': {'spec': {'containers': [sidecar]}}}})
    equal([c.name for c in merged.spec.template.spec.containers], ['sidecar'], 'a merge patch replaces the list')
    bad = refused(422, apps.patch_namespaced_deployment, 'patched', NS, {'spec': {'replicas': -1}})
    equal(bad['reason'], 'Invalid', 'reason')
    equal([c['field'] for c in bad['details']['causes']], ['spec.replicas'], 'causes')


def scenario_server_side_apply():
    """Server-side apply: the typed patch with the apply content type (the body as text), managers, a conflict
    as a 409 with its causes, force; the dynamic client's server_side_apply."""
    applying = client.AppsV1Api(user(APPLY))
    applied = applying.patch_namespaced_deployment('applied', NS, json.dumps(deployment('applied')), field_manager='deployer')
    equal((applied.metadata.managed_fields[0].manager, applied.metadata.managed_fields[0].operation), ('deployer', 'Apply'), 'manager')
    equal(applied.spec.template.spec.containers[0].ports[0].protocol, 'TCP', 'defaulted protocol')
    scaled = json.dumps({'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'applied'}, 'spec': {'replicas': 3}})
    conflict = refused(409, applying.patch_namespaced_deployment, 'applied', NS, scaled, field_manager='autoscaler')
    equal(conflict['reason'], 'Conflict', 'reason')
    equal([(c['reason'], c['field']) for c in conflict['details']['causes']], [('FieldManagerConflict', '.spec.replicas')], 'causes')
    check('conflict with "deployer"' in conflict['message'], conflict['message'])
    forced = applying.patch_namespaced_deployment('applied', NS, scaled, field_manager='autoscaler', force=True)
    equal(forced.spec.replicas, 3, 'forced')
    equal(sorted(m.manager for m in forced.metadata.managed_fields), ['autoscaler', 'deployer'], 'managers')

    dyn = dynamic.DynamicClient(user())
    deployments = dyn.resources.get(api_version='apps/v1', kind='Deployment')
    again = deployments.server_side_apply(body=json.dumps(deployment('applied', 'nginx:1.26', 5)), name='applied', namespace=NS,
                                          field_manager='deployer', force_conflicts=True)
    equal((again.spec.replicas, again.spec.template.spec.containers[0].image), (5, 'nginx:1.26'), 'dynamic apply')


def scenario_status_and_scale():
    """Status only through /status, generation moved by the spec alone; the scale subresource."""
    apps = client.AppsV1Api(user())
    body = deployment('status')
    body['status'] = {'replicas': 9}
    created = apps.create_namespaced_deployment(NS, body)
    equal(created.status.replicas, None, 'a create drops the status sent')
    current = apps.read_namespaced_deployment_status('status', NS)
    current.spec.replicas = 5
    current.status = client.V1DeploymentStatus(replicas=1, ready_replicas=1, observed_generation=1)
    replaced = apps.replace_namespaced_deployment_status('status', NS, current)
    equal((replaced.status.ready_replicas, replaced.spec.replicas, replaced.metadata.generation), (1, 1, 1), '/status keeps the spec')
    patched = apps.patch_namespaced_deployment_status('status', NS, {'status': {'availableReplicas': 1}})
    equal((patched.status.replicas, patched.status.available_replicas), (1, 1), 'status patch')
    main = apps.patch_namespaced_deployment('status', NS, {'status': {'replicas': 7}})
    equal(main.status.replicas, 1, 'the main resource keeps the status')
    scale = apps.read_namespaced_deployment_scale('status', NS)
    equal((scale.spec.replicas, scale.status.replicas, scale.status.selector), (1, 1, 'app=status'), 'scale')
    rescaled = apps.patch_namespaced_deployment_scale('status', NS, {'spec': {'replicas': 4}})
    equal(rescaled.spec.replicas, 4, 'scale patch')
    after = apps.read_namespaced_deployment('status', NS)
    equal((after.spec.replicas, after.metadata.generation), (4, 2), 'scaled deployment')
    rescaled.spec.replicas = 2
    equal(apps.replace_namespaced_deployment_scale('status', NS, rescaled).spec.replicas, 2, 'scale replace')


def scenario_delete_propagation():
    """Foreground holds the owner (marked, generation moved) until its dependents are gone; background removes
    them after; orphan keeps them, without the owner reference."""
    apps = client.AppsV1Api(user())
    core = client.CoreV1Api(user())

    def with_dependent(name, finalizers=None):
        owner = apps.create_namespaced_deployment(NS, deployment(name))
        core.create_namespaced_config_map(NS, {'metadata': {
            'name': name + '-dependent', 'finalizers': finalizers or [],
            'ownerReferences': [{'apiVersion': 'apps/v1', 'kind': 'Deployment', 'name': name, 'uid': owner.metadata.uid,
                                 'blockOwnerDeletion': True}]}})

    with_dependent('foreground', ['example.com/hold'])
    apps.delete_namespaced_deployment('foreground', NS, propagation_policy='Foreground')
    marked = apps.read_namespaced_deployment('foreground', NS)
    check(marked.metadata.deletion_timestamp is not None, 'marked for deletion')
    equal((marked.metadata.finalizers, marked.metadata.generation), (['foregroundDeletion'], 2), 'foreground marking')
    check(eventually(lambda: core.read_namespaced_config_map('foreground-dependent', NS).metadata.deletion_timestamp is not None),
          'the dependent is being deleted')
    apps.read_namespaced_deployment('foreground', NS)
    core.patch_namespaced_config_map('foreground-dependent', NS, [{'op': 'remove', 'path': '/metadata/finalizers'}])
    check(gone(core.read_namespaced_config_map, 'foreground-dependent', NS), 'dependent deleted')
    check(gone(apps.read_namespaced_deployment, 'foreground', NS), 'owner deleted after it')

    with_dependent('background')
    status = apps.delete_namespaced_deployment('background', NS, body=client.V1DeleteOptions(propagation_policy='Background'))
    equal(status.status, 'Success', 'removed at once')
    check(gone(core.read_namespaced_config_map, 'background-dependent', NS), 'dependent collected')

    with_dependent('orphan')
    apps.delete_namespaced_deployment('orphan', NS, body=client.V1DeleteOptions(propagation_policy='Orphan'))
    check(gone(apps.read_namespaced_deployment, 'orphan', NS), 'owner deleted')
    check(eventually(lambda: core.read_namespaced_config_map('orphan-dependent', NS).metadata.owner_references is None), 'orphaned')


def events_of(stream, count=None):
    out = []
    for event in stream:
        obj = event['raw_object']
        out.append((event['type'], obj.get('metadata', {}).get('name'), obj.get('metadata', {}).get('resourceVersion')))
        if count is not None and len(out) >= count:
            break
    return out


def scenario_watch():
    """watch.Watch().stream: every change in order, resumed from one of them exactly the rest, a BOOKMARK for a
    change the selector filtered out, and a stream carried across the server ending its watches."""
    core = client.CoreV1Api(user())
    start = core.list_namespaced_config_map(NS, label_selector='suite=watch').metadata.resource_version
    core.create_namespaced_config_map(NS, {'metadata': {'name': 'watched', 'labels': {'suite': 'watch'}}})
    core.patch_namespaced_config_map('watched', NS, {'data': {'a': '1'}})
    core.delete_namespaced_config_map('watched', NS)
    first = events_of(watch.Watch().stream(core.list_namespaced_config_map, NS, label_selector='suite=watch',
                                           resource_version=start, timeout_seconds=3))
    equal([(t, n) for t, n, _ in first], [('ADDED', 'watched'), ('MODIFIED', 'watched'), ('DELETED', 'watched')], 'events')
    versions = [int(rv) for _, _, rv in first]
    check(int(start) < versions[0] < versions[1] < versions[2], 'increasing %s' % versions)
    resumed = events_of(watch.Watch().stream(core.list_namespaced_config_map, NS, label_selector='suite=watch',
                                             resource_version=first[0][2], timeout_seconds=2))
    equal([t for t, _, _ in resumed], ['MODIFIED', 'DELETED'], 'resumed')

    # The bookmark comes 2 s before the timeout: the change has 3 s to land before it.
    later = {}
    timer = threading.Timer(0.3, lambda: later.update(rv=core.create_namespaced_config_map(
        NS, {'metadata': {'name': 'unwatched'}}).metadata.resource_version))
    timer.start()
    bookmarked = events_of(watch.Watch().stream(core.list_namespaced_config_map, NS, label_selector='suite=watch',
                                                resource_version=first[2][2], allow_watch_bookmarks=True, timeout_seconds=5))
    timer.join()
    # The bookmark carries the cache's revision when it is sent: the filtered change's or, when other objects
    # changed after it (leases renew), a later one, never one the server has not reached.
    now = int(core.list_namespaced_config_map(NS, limit=1).metadata.resource_version)
    equal([t for t, _, _ in bookmarked], ['BOOKMARK'], 'one bookmark')
    check(int(later['rv']) <= int(bookmarked[0][2]) <= now,
          'a bookmark past the filtered change: %s, change %s, now %s' % (bookmarked[0][2], later['rv'], now))

    # Without timeout_seconds the server ends the watch after its minimum request timeout and the stream goes on
    # from the last resourceVersion it saw: every change once, in order.
    start = core.list_namespaced_config_map(NS, label_selector='suite=long').metadata.resource_version
    names = ['long-%d' % i for i in range(12)]

    def produce():
        for name in names:
            core.create_namespaced_config_map(NS, {'metadata': {'name': name, 'labels': {'suite': 'long'}}})
            time.sleep(1)
    producer = threading.Thread(target=produce)
    producer.start()
    w = watch.Watch()
    seen = []
    for event in w.stream(core.list_namespaced_config_map, NS, label_selector='suite=long', resource_version=start):
        seen.append((event['type'], event['object'].metadata.name))
        if len(seen) == len(names):
            w.stop()
    producer.join()
    equal(seen, [('ADDED', n) for n in names], 'across the server\'s watch timeouts')


def scenario_errors():
    """ApiException with kube's Status in its body: 404, 409, 422 with causes, 403."""
    core = client.CoreV1Api(user())
    missing = refused(404, core.read_namespaced_config_map, 'absent', NS)
    equal((missing['reason'], missing['message'], missing['details']['name'], missing['details']['kind']),
          ('NotFound', 'configmaps "absent" not found', 'absent', 'configmaps'), 'not found')
    core.create_namespaced_config_map(NS, {'metadata': {'name': 'twice'}})
    exists = refused(409, core.create_namespaced_config_map, NS, {'metadata': {'name': 'twice'}})
    equal((exists['reason'], exists['message']), ('AlreadyExists', 'configmaps "twice" already exists'), 'already exists')
    invalid = refused(422, core.create_namespaced_config_map, NS, {'metadata': {'name': 'Not_Valid'}, 'data': {'bad key': 'x'}})
    equal(invalid['reason'], 'Invalid', 'reason')
    equal(sorted(c['field'] for c in invalid['details']['causes']), ['data[bad key]', 'metadata.name'], 'causes')
    check(invalid['message'].startswith('ConfigMap "Not_Valid" is invalid: '), invalid['message'])
    forbidden = refused(403, core.list_namespaced_config_map, OTHER_NS)
    equal(forbidden['reason'], 'Forbidden', 'reason')
    equal(forbidden['message'], 'configmaps is forbidden: User "%s" cannot list resource "configmaps" in API group "" in the namespace "%s"'
          % (USER, OTHER_NS), 'message')
    try:
        client.CoreV1Api(user()).read_namespaced_config_map('absent', NS)
    except ApiException as e:
        equal((e.status, e.reason), (404, 'Not Found'), 'status line')
        equal(e.headers['Content-Type'], 'application/json', 'content type')


def ensure_widgets():
    """The widgets CRD, created by the admin if absent, established."""
    ext = client.ApiextensionsV1Api(admin())
    name = '%s.%s' % (WIDGETS[2], WIDGETS[0])
    try:
        ext.create_custom_resource_definition({
            'apiVersion': 'apiextensions.k8s.io/v1', 'kind': 'CustomResourceDefinition', 'metadata': {'name': name},
            'spec': {'group': WIDGETS[0], 'scope': 'Namespaced',
                     'names': {'plural': WIDGETS[2], 'singular': 'widget', 'kind': 'Widget', 'shortNames': ['wd']},
                     'versions': [{'name': 'v1', 'served': True, 'storage': True, 'subresources': {'status': {}},
                                   'schema': {'openAPIV3Schema': {'type': 'object', 'properties': {
                                       'spec': {'type': 'object', 'properties': {'size': {'type': 'integer', 'minimum': 1}}},
                                       'status': {'type': 'object', 'properties': {'phase': {'type': 'string'}}}}}}}]}})
    except ApiException as e:
        if e.status != 409:
            raise
    check(eventually(lambda: any(c.type == 'Established' and c.status == 'True'
                                 for c in (ext.read_custom_resource_definition(name).status.conditions or []))), 'established')


def scenario_custom_objects():
    """CustomObjectsApi on a CRD: create, get, list by label, merge, JSON and apply patches, status, watch, delete."""
    ensure_widgets()
    custom = client.CustomObjectsApi(user())
    group, version, plural = WIDGETS
    widget = {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': 'w1', 'labels': {'color': 'blue'}}, 'spec': {'size': 1}}

    def create():
        try:
            custom.create_namespaced_custom_object(group, version, NS, plural, widget)
            return True
        except ApiException as e:
            if e.status == 404:  # served a moment after Established, as on kube
                return False
            raise
    check(eventually(create), 'created')
    start = custom.list_namespaced_custom_object(group, version, NS, plural)['metadata']['resourceVersion']
    equal(custom.get_namespaced_custom_object(group, version, NS, plural, 'w1')['spec'], {'size': 1}, 'get')
    listed = custom.list_namespaced_custom_object(group, version, NS, plural, label_selector='color=blue')
    equal([o['metadata']['name'] for o in listed['items']], ['w1'], 'list by label')
    equal(custom.patch_namespaced_custom_object(group, version, NS, plural, 'w1', {'spec': {'size': 2}})['spec'], {'size': 2}, 'merge patch')
    json_patched = client.CustomObjectsApi(user(JSON_PATCH)).patch_namespaced_custom_object(
        group, version, NS, plural, 'w1', [{'op': 'replace', 'path': '/spec/size', 'value': 3}])
    equal(json_patched['spec'], {'size': 3}, 'JSON patch')
    applied = client.CustomObjectsApi(user(APPLY)).patch_namespaced_custom_object(
        group, version, NS, plural, 'w1', json.dumps(dict(widget, spec={'size': 4})), field_manager='widget-apply', force=True)
    equal(applied['spec'], {'size': 4}, 'apply')
    status = custom.patch_namespaced_custom_object_status(group, version, NS, plural, 'w1', {'status': {'phase': 'Ready'}, 'spec': {'size': 9}})
    equal((status['status'], status['spec']), ({'phase': 'Ready'}, {'size': 4}), '/status')
    too_small = refused(422, custom.patch_namespaced_custom_object, group, version, NS, plural, 'w1', {'spec': {'size': 0}})
    equal([c['field'] for c in too_small['details']['causes']], ['spec.size'], 'schema causes')
    watched = events_of(watch.Watch().stream(custom.list_namespaced_custom_object, group, version, NS, plural,
                                             resource_version=start, timeout_seconds=2))
    equal([t for t, _, _ in watched], ['MODIFIED'] * 4, 'watch')
    equal(custom.delete_namespaced_custom_object(group, version, NS, plural, 'w1')['status'], 'Success', 'delete')
    refused(404, custom.get_namespaced_custom_object, group, version, NS, plural, 'w1')


def scenario_access_review():
    """SelfSubjectAccessReview and SelfSubjectRulesReview as the token user."""
    authz = client.AuthorizationV1Api(user())

    def review(verb, resource, namespace, group=''):
        return authz.create_self_subject_access_review(client.V1SelfSubjectAccessReview(
            spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
                verb=verb, resource=resource, namespace=namespace, group=group)))).status
    allowed = review('create', 'deployments', NS, 'apps')
    check(allowed.allowed and 'RoleBinding' in allowed.reason, allowed)
    check(review('patch', 'widgets', NS, 'example.com').allowed, 'widgets')
    check(not review('get', 'configmaps', OTHER_NS).allowed, 'another namespace')
    check(not review('create', 'namespaces', '').allowed, 'namespaces')
    rules = authz.create_self_subject_rules_review({'spec': {'namespace': NS}}).status
    check(any('configmaps' in (r.resources or []) and 'create' in r.verbs for r in rules.resource_rules), rules.resource_rules)


def scenario_dynamic():
    """The dynamic client: discovery of core, grouped and custom kinds, create, get, list, patch, apply, watch and
    delete; utils.create_from_yaml."""
    ensure_widgets()
    dyn = dynamic.DynamicClient(user(), cache_file=os.path.join(tempfile.mkdtemp(), 'discovery.json'))
    equal(dyn.version['kubernetes']['minor'], '27', 'version')
    configmaps = dyn.resources.get(api_version='v1', kind='ConfigMap')
    equal((configmaps.name, configmaps.namespaced, configmaps.short_names), ('configmaps', True, ['cm']), 'configmaps')
    start = configmaps.get(namespace=NS, label_selector='suite=dynamic').metadata.resourceVersion
    configmaps.create(body={'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'dyn', 'labels': {'suite': 'dynamic'}}, 'data': {'a': '1'}}, namespace=NS)
    equal(configmaps.get(name='dyn', namespace=NS).data.a, '1', 'get')
    equal([i.metadata.name for i in configmaps.get(namespace=NS, label_selector='suite=dynamic').items], ['dyn'], 'list')
    patched = configmaps.patch(body={'data': {'b': '2'}}, name='dyn', namespace=NS, content_type=MERGE)
    equal(dict(patched.data), {'a': '1', 'b': '2'}, 'merge patch')
    events = []
    for event in dyn.watch(configmaps, namespace=NS, label_selector='suite=dynamic', resource_version=start, timeout=2):
        events.append((event['type'], event['object'].metadata.name))
    equal(events, [('ADDED', 'dyn'), ('MODIFIED', 'dyn')], 'watch')
    equal(configmaps.delete(name='dyn', namespace=NS).status, 'Success', 'delete')

    leases = dyn.resources.get(api_version='coordination.k8s.io/v1', kind='Lease')
    lease = leases.create(body={'apiVersion': 'coordination.k8s.io/v1', 'kind': 'Lease', 'metadata': {'name': 'dyn'},
                                'spec': {'holderIdentity': 'me', 'leaseDurationSeconds': 15}}, namespace=NS)
    equal(lease.spec.holderIdentity, 'me', 'lease')
    equal([r.name for r in dyn.resources.search(kind='Deployment', group='apps')], ['deployments'], 'search')
    widgets = dyn.resources.get(api_version='example.com/v1', kind='Widget')
    equal((widgets.name, widgets.short_names), ('widgets', ['wd']), 'custom kind discovered')
    widget = widgets.server_side_apply(body=json.dumps({'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': 'dyn'},
                                                         'spec': {'size': 2}}), name='dyn', namespace=NS, field_manager='dyn')
    equal(widget.spec.size, 2, 'custom apply')

    manifest = os.path.join(tempfile.mkdtemp(), 'objects.yaml')
    with open(manifest, 'w') as f:
        f.write('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-yaml}\ndata: {a: b}\n---\n' +
                json.dumps(deployment('from-yaml')) + '\n')
    made = utils.create_from_yaml(user(), manifest, namespace=NS)
    equal(sorted(o[0].kind for o in made), ['ConfigMap', 'Deployment'], 'create_from_yaml')


def scenario_expired():
    """410 Expired for a compacted resourceVersion: an ApiException from the stream (at once with timeout_seconds,
    after its one retry without); a new list and watch go on."""
    core = client.CoreV1Api(user())
    start = ENV['SUITE_START_RV']
    deadline = time.time() + int(ENV['SUITE_HISTORY_SECONDS']) * 8 + 30
    expired = None
    tick = 0
    while expired is None and time.time() < deadline:
        # Writes move the store on, so the history before the suite's first resourceVersion gets compacted.
        core.create_namespaced_config_map(NS, {'metadata': {'name': 'py-tick-%d' % tick}})
        tick += 1
        try:
            for _ in watch.Watch().stream(core.list_namespaced_config_map, NS, resource_version=start, timeout_seconds=1):
                pass
            time.sleep(1)
        except ApiException as e:
            expired = e
    check(expired is not None, 'the first resourceVersion was compacted')
    equal(expired.status, 410, 'status')
    check(expired.reason.startswith('Expired: too old resource version: %s (' % start), expired.reason)

    # Without timeout_seconds the stream retries once from the same resourceVersion, then gives up with the 410.
    try:
        for _ in watch.Watch().stream(core.list_namespaced_config_map, NS, resource_version=start):
            pass
        raise AssertionError('the stream ended without an error')
    except ApiException as e:
        equal(e.status, 410, 'after the retry')

    fresh = core.list_namespaced_config_map(NS, label_selector='suite=relist').metadata.resource_version
    core.create_namespaced_config_map(NS, {'metadata': {'name': 'after-expiry', 'labels': {'suite': 'relist'}}})
    after = events_of(watch.Watch().stream(core.list_namespaced_config_map, NS, label_selector='suite=relist',
                                           resource_version=fresh, timeout_seconds=5), count=1)
    equal([(t, n) for t, n, _ in after], [('ADDED', 'after-expiry')], 'watch after a new list')


if __name__ == '__main__':
    name = sys.argv[1]
    globals()['scenario_' + name]()
    print('ok')
