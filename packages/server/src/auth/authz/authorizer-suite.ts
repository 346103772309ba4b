/**
 * The shared conformance suite every policy-driven authorizer runs (RBAC, Webhook over a policy): given grants, the
 * granted requests are allowed and nothing else is (other verb, resource, group, namespace, user, name,
 * subresource or path is never allowed), group grants apply to members only, and every rule an authorizer lists
 * for a user (kube's RuleResolver, behind SelfSubjectRulesReview) is confirmed by its own decisions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../../request/request-info.js';
import type { UserInfo } from '../../request/user-info.js';
import type { Authorizer, AuthorizationDecision } from '../../request/authorizer.js';

/** One permission the authorizer under test must be set up to grant. */
export interface SuiteGrant {
  readonly subject: { kind: 'User' | 'Group'; name: string };
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  /** '' = cluster-wide */
  readonly namespace: string;
}

/** The grants every run of the suite sets up. */
export const suiteGrants: readonly SuiteGrant[] = [
  { subject: { kind: 'User', name: 'alice' }, verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], namespace: 'ns1' },
  { subject: { kind: 'Group', name: 'deployers' }, verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'], namespace: '' },
  { subject: { kind: 'User', name: 'bob' }, verbs: ['get'], apiGroups: [''], resources: ['pods/log'], namespace: 'ns1' },
  { subject: { kind: 'User', name: 'carol' }, verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg-a'], namespace: 'ns1' },
  { subject: { kind: 'User', name: 'dave' }, verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'], namespace: '' },
  { subject: { kind: 'User', name: 'erin' }, verbs: ['*'], apiGroups: ['batch'], resources: ['*'], namespace: 'ns2' },
  { subject: { kind: 'User', name: 'frank' }, verbs: ['get'], apiGroups: ['*'], resources: ['*/status'], namespace: 'ns1' },
];

/** A user with groups (every authenticated user is in system:authenticated). */
export function suiteUser(username: string, groups: readonly string[] = []): UserInfo {
  return { username, groups: [...groups, 'system:authenticated'] };
}

/** What a resource request is about. */
export interface ResourceRequest {
  readonly verb: string;
  readonly group?: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** The request info of a resource request, as the request-info filter would parse it. */
export function resourceRequestInfo(r: ResourceRequest): RequestInfo {
  const group = r.group ?? '';
  const version = 'v1';
  const namespace = r.namespace ?? '';
  const parts = [
    ...(namespace !== '' ? ['namespaces', namespace] : []), r.resource, ...(r.name ? [r.name] : []), ...(r.subresource ? [r.subresource] : []),
  ];
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return {
    isResourceRequest: true, path: `${prefix}/${parts.join('/')}`, verb: r.verb, apiPrefix: group === '' ? 'api' : 'apis',
    apiGroup: group, apiVersion: version, namespace, resource: r.resource, subresource: r.subresource ?? '', name: r.name ?? '', parts,
  };
}

/** The request info of a non-resource request: the verb is the lowercase HTTP method. */
export function nonResourceRequestInfo(verb: string, path: string): RequestInfo {
  return {
    isResourceRequest: false, path, verb, apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '',
    name: '', parts: path.split('/').filter((p) => p !== ''),
  };
}

/** Runs the suite; `setup` builds the authorizer granting exactly the grants it is given. */
export function authorizerSuite(
  name: string,
  setup: (grants: readonly SuiteGrant[]) => Promise<{ authorizer: Authorizer; close(): Promise<void> }>,
): void {
  const withAuthorizer = (body: (a: Authorizer) => Promise<void>) => async () => {
    const { authorizer, close } = await setup(suiteGrants);
    try {
      await body(authorizer);
    } finally {
      await close();
    }
  };
  const decide = (a: Authorizer, user: UserInfo, info: RequestInfo): Promise<AuthorizationDecision> => a.authorize({ user, info });
  const describe = (user: UserInfo, info: RequestInfo): string =>
    `${user.username} [${user.groups.join(',')}] ${info.verb} ${info.isResourceRequest ? `${info.apiGroup}/${info.resource}/${info.subresource}:${info.name} in "${info.namespace}"` : info.path}`;
  const allowed = async (a: Authorizer, user: UserInfo, r: ResourceRequest | RequestInfo): Promise<void> => {
    const info = 'isResourceRequest' in r ? r : resourceRequestInfo(r);
    const d = await decide(a, user, info);
    assert.equal(d.decision, 'allow', `${describe(user, info)}: ${JSON.stringify(d)}`);
  };
  const notAllowed = async (a: Authorizer, user: UserInfo, r: ResourceRequest | RequestInfo): Promise<void> => {
    const info = 'isResourceRequest' in r ? r : resourceRequestInfo(r);
    const d = await decide(a, user, info);
    assert.notEqual(d.decision, 'allow', `${describe(user, info)} must not be allowed: ${JSON.stringify(d)}`);
  };
  const alice = suiteUser('alice');

  test(`${name}: a granted request is allowed`, withAuthorizer(async (a) => {
    await allowed(a, alice, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns1' });
    await allowed(a, alice, { verb: 'list', resource: 'pods', namespace: 'ns1' });
    await allowed(a, suiteUser('erin'), { verb: 'delete', group: 'batch', resource: 'jobs', name: 'j', namespace: 'ns2' });
    await allowed(a, suiteUser('erin'), { verb: 'watch', group: 'batch', resource: 'cronjobs', namespace: 'ns2' });
  }));

  test(`${name}: another verb, resource, group, namespace or user is not allowed`, withAuthorizer(async (a) => {
    await notAllowed(a, alice, { verb: 'delete', resource: 'pods', name: 'p', namespace: 'ns1' });
    await notAllowed(a, alice, { verb: 'get', resource: 'secrets', name: 's', namespace: 'ns1' });
    await notAllowed(a, alice, { verb: 'get', group: 'apps', resource: 'pods', name: 'p', namespace: 'ns1' });
    await notAllowed(a, alice, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns2' });
    // A namespaced grant is not a cluster-wide one (a list across all namespaces).
    await notAllowed(a, alice, { verb: 'list', resource: 'pods' });
    await notAllowed(a, suiteUser('mallory'), { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns1' });
    await notAllowed(a, suiteUser('erin'), { verb: 'get', resource: 'pods', namespace: 'ns2' });
    await notAllowed(a, suiteUser('erin'), { verb: 'get', group: 'batch', resource: 'jobs', namespace: 'ns1' });
  }));

  test(`${name}: a group grant applies to the group's members only`, withAuthorizer(async (a) => {
    const member = suiteUser('gina', ['deployers']);
    await allowed(a, member, { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ns7' });
    await allowed(a, member, { verb: 'create', group: 'apps', resource: 'deployments' });
    await notAllowed(a, member, { verb: 'delete', group: 'apps', resource: 'deployments', name: 'd', namespace: 'ns7' });
    await notAllowed(a, suiteUser('gina'), { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ns7' });
    // A user named like the group is not in it.
    await notAllowed(a, suiteUser('deployers'), { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ns7' });
  }));

  test(`${name}: a subresource needs <resource>/<subresource> or */<subresource>`, withAuthorizer(async (a) => {
    await notAllowed(a, alice, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p', namespace: 'ns1' });
    await allowed(a, suiteUser('bob'), { verb: 'get', resource: 'pods', subresource: 'log', name: 'p', namespace: 'ns1' });
    await notAllowed(a, suiteUser('bob'), { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns1' });
    await notAllowed(a, suiteUser('bob'), { verb: 'get', resource: 'pods', subresource: 'exec', name: 'p', namespace: 'ns1' });
    const frank = suiteUser('frank');
    await allowed(a, frank, { verb: 'get', group: 'apps', resource: 'deployments', subresource: 'status', name: 'd', namespace: 'ns1' });
    await allowed(a, frank, { verb: 'get', resource: 'pods', subresource: 'status', name: 'p', namespace: 'ns1' });
    await notAllowed(a, frank, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns1' });
    await notAllowed(a, frank, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p', namespace: 'ns1' });
  }));

  test(`${name}: resourceNames limit the names`, withAuthorizer(async (a) => {
    const carol = suiteUser('carol');
    await allowed(a, carol, { verb: 'get', resource: 'configmaps', name: 'cfg-a', namespace: 'ns1' });
    await allowed(a, carol, { verb: 'update', resource: 'configmaps', name: 'cfg-a', namespace: 'ns1' });
    await notAllowed(a, carol, { verb: 'get', resource: 'configmaps', name: 'cfg-b', namespace: 'ns1' });
    // A list names nothing: a rule limited to names does not grant it.
    await notAllowed(a, carol, { verb: 'list', resource: 'configmaps', namespace: 'ns1' });
    await notAllowed(a, carol, { verb: 'get', resource: 'configmaps', name: '', namespace: 'ns1' });
  }));

  test(`${name}: non-resource paths match exactly or by a trailing *`, withAuthorizer(async (a) => {
    const dave = suiteUser('dave');
    await allowed(a, dave, nonResourceRequestInfo('get', '/healthz'));
    await allowed(a, dave, nonResourceRequestInfo('get', '/logs/kube.log'));
    await allowed(a, dave, nonResourceRequestInfo('get', '/logs/a/b'));
    await notAllowed(a, dave, nonResourceRequestInfo('get', '/healthz/etcd'));
    await notAllowed(a, dave, nonResourceRequestInfo('get', '/logs'));
    await notAllowed(a, dave, nonResourceRequestInfo('post', '/healthz'));
    await notAllowed(a, dave, nonResourceRequestInfo('get', '/version'));
    await notAllowed(a, suiteUser('mallory'), nonResourceRequestInfo('get', '/healthz'));
    // Resource grants say nothing of paths.
    await notAllowed(a, alice, nonResourceRequestInfo('get', '/healthz'));
  }));

  test(`${name}: every listed rule is confirmed by a decision`, withAuthorizer(async (a) => {
    if (a.rulesFor === undefined) {
      // An authorizer that cannot list makes rules reviews incomplete: nothing to confirm.
      return;
    }
    const users = [alice, suiteUser('bob'), suiteUser('carol'), suiteUser('dave'), suiteUser('erin'), suiteUser('frank'), suiteUser('gina', ['deployers'])];
    let confirmed = 0;
    for (const user of users) {
      for (const namespace of ['ns1', 'ns2', '']) {
        const rules = await a.rulesFor(user, namespace);
        for (const rule of rules.resourceRules) {
          for (const verb of rule.verbs) {
            for (const group of rule.apiGroups) {
              for (const res of rule.resources) {
                const [resource, subresource] = res.split('/', 2) as [string, string | undefined];
                for (const name of rule.resourceNames.length > 0 ? rule.resourceNames : ['some-name']) {
                  await allowed(a, user, {
                    verb: verb === '*' ? 'patch' : verb, group: group === '*' ? 'example.com' : group,
                    resource: resource === '*' ? 'widgets' : resource, ...(subresource ? { subresource } : {}), name: name === '*' ? 'x' : name, namespace,
                  });
                  confirmed++;
                }
              }
            }
          }
        }
        for (const rule of rules.nonResourceRules) {
          for (const verb of rule.verbs) {
            for (const url of rule.nonResourceURLs) {
              await allowed(a, user, nonResourceRequestInfo(verb === '*' ? 'get' : verb, url.endsWith('*') ? `${url.slice(0, -1)}x` : url));
              confirmed++;
            }
          }
        }
      }
    }
    // The listing is not empty: alice's own rule is in it, and nothing of it leaks into another namespace.
    const aliceRules = await a.rulesFor(alice, 'ns1');
    assert.ok(aliceRules.resourceRules.some((r) => r.resources.includes('pods') && r.verbs.includes('get')), JSON.stringify(aliceRules));
    const elsewhere = await a.rulesFor(alice, 'ns2');
    assert.ok(!elsewhere.resourceRules.some((r) => r.resources.includes('pods')), JSON.stringify(elsewhere));
    const daveRules = await a.rulesFor(suiteUser('dave'), '');
    assert.ok(daveRules.nonResourceRules.some((r) => r.nonResourceURLs.includes('/healthz')), JSON.stringify(daveRules));
    assert.ok(confirmed > 0);
  }));
}
