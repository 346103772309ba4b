/**
 * flowcontrol FlowSchema rules (v1beta3 and v1beta2) compared one by one with kube-apiserver 1.27's
 * ValidateFlowSchema and ValidatePriorityLevelConfiguration: matching precedence bounds, priority level names,
 * subjects and their members, resource and non-resource rules; level types, shares, percentages and queuing.
 */
import { grouped, rejectedCreate, type ParityCase } from './corpus.js';

const level = { name: 'workload-low' };
const users = [{ kind: 'User', user: { name: 'u' } }];

/** The flowcontrol rules' corpus. */
export function flowcontrolCases(): ParityCase[] {
  const v1beta3 = grouped('flowcontrol.apiserver', 'v1beta3', 'flowschemas', 'FlowSchema', false);
  const v1beta2 = grouped('flowcontrol.apiserver', 'v1beta2', 'flowschemas', 'FlowSchema', false);
  const levels = grouped('flowcontrol.apiserver', 'v1beta3', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false);
  const levelsV1beta2 = grouped('flowcontrol.apiserver', 'v1beta2', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false);
  return [
    rejectedCreate('FlowSchema: precedence 1 is the exempt schema\'s; a priority level name is a subdomain', v1beta3,
      { spec: { matchingPrecedence: 1, priorityLevelConfiguration: { name: 'Low_Level' }, distinguisherMethod: { type: 'ByGroup' } } },
      ['spec.matchingPrecedence', 'spec.priorityLevelConfiguration.name', 'spec.distinguisherMethod.type'],
      ["only the schema named 'exempt' may have matchingPrecedence 1"]),
    rejectedCreate('FlowSchema: subjects carry only their kind\'s member; service accounts need a namespace', v1beta3,
      {
        spec: {
          priorityLevelConfiguration: level,
          rules: [{
            subjects: [
              { kind: 'User', user: { name: '' }, group: { name: 'g' } },
              { kind: 'ServiceAccount', serviceAccount: { name: '*' } },
              { kind: 'Group' },
              { kind: 'Robot' },
            ],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
          }],
        },
      },
      [
        'spec.rules[0].subjects[0].user.name', 'spec.rules[0].subjects[0].group', 'spec.rules[0].subjects[1].serviceAccount.namespace',
        'spec.rules[0].subjects[2].group', 'spec.rules[0].subjects[3].kind',
      ],
      ["group is forbidden when subject kind is not 'Group'", 'must specify namespace for service account', "group is required when subject kind is 'Group'"]),
    rejectedCreate('FlowSchema: resource rules need verbs, groups, resources and namespaces; * alone', v1beta2,
      {
        spec: {
          priorityLevelConfiguration: level,
          rules: [
            {
              subjects: users,
              resourceRules: [
                { verbs: ['get', '*'], apiGroups: ['*', 'apps'], resources: [] },
                { verbs: ['fly'], apiGroups: [''], resources: ['pods'], namespaces: ['Bad_NS'] },
              ],
              nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['healthz', '/a//b', '/a*', '/x/*'] }],
            },
            { subjects: users },
          ],
        },
      },
      [
        'spec.rules[0].resourceRules[0].verbs', 'spec.rules[0].resourceRules[0].apiGroups', 'spec.rules[0].resourceRules[0].resources',
        'spec.rules[0].resourceRules[0].namespaces', 'spec.rules[0].resourceRules[1].verbs', 'spec.rules[0].resourceRules[1].namespaces[0]',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]', 'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]',
        'spec.rules[0].nonResourceRules[0].nonResourceURLs[2]', 'spec.rules[1]',
      ],
      ["if '*' is present, must not specify other verbs", 'must start with slash', 'wildcard can only do suffix matching', 'at least one of resourceRules and nonResourceRules has to be non-empty']),
    rejectedCreate('PriorityLevelConfiguration: queuing limits positive, a hand the shuffle sharding can deal, percentages bounded', levels,
      {
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -1, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 10, queueLengthLimit: -5 } } },
        },
      },
      [
        'spec.limited.nominalConcurrencyShares', 'spec.limited.lendablePercent', 'spec.limited.borrowingLimitPercent',
        'spec.limited.limitResponse.queuing.queueLengthLimit', 'spec.limited.limitResponse.queuing.handSize',
      ],
      ['must be positive', 'required entropy bits of deckSize 128 and handSize 10 should not be greater than 60', 'if specified, must be a non-negative integer']),
    rejectedCreate('PriorityLevelConfiguration v1beta2: shares named as the version names them; a Queue response needs queuing', levelsV1beta2,
      { spec: { type: 'Limited', limited: { assuredConcurrencyShares: -3, limitResponse: { type: 'Queue' } } } },
      ['spec.limited.assuredConcurrencyShares', 'spec.limited.limitResponse.queuing'], ['must not be empty if limited.limitResponse.type is Limited']),
    rejectedCreate('PriorityLevelConfiguration: the exempt type only for the level named exempt', levels,
      { spec: { type: 'Exempt', limited: { limitResponse: { type: 'Reject' } } } },
      ['spec.type', 'spec.limited'], ["type must be 'Exempt' if and only if name is 'exempt'", 'must be nil if the type is not Limited']),
  ];
}
