/**
 * The FlowSchema and PriorityLevelConfiguration objects as API Priority and Fairness reads them
 * (flowcontrol.apiserver.k8s.io/v1beta3, `flowcontrol.apiserver.svc.io` in the svc flavour): only the fields that
 * classification and queuing use, read leniently from stored objects.
 */

/** A subject of a rule (flowcontrol Subject). */
export type Subject =
  | { readonly kind: 'User'; readonly user: { readonly name: string } }
  | { readonly kind: 'Group'; readonly group: { readonly name: string } }
  | { readonly kind: 'ServiceAccount'; readonly serviceAccount: { readonly namespace: string; readonly name: string } };

/** A resource rule (flowcontrol ResourcePolicyRule). */
export interface ResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly clusterScope?: boolean;
  readonly namespaces?: readonly string[];
}

/** A non-resource rule (flowcontrol NonResourcePolicyRule). */
export interface NonResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** Subjects and the rules they are matched with (flowcontrol PolicyRulesWithSubjects). */
export interface PolicyRulesWithSubjects {
  readonly subjects: readonly Subject[];
  readonly resourceRules?: readonly ResourcePolicyRule[];
  readonly nonResourceRules?: readonly NonResourcePolicyRule[];
}

/** A FlowSchema's spec. */
export interface FlowSchemaSpec {
  readonly priorityLevelConfiguration: { readonly name: string };
  readonly matchingPrecedence?: number;
  readonly distinguisherMethod?: { readonly type: 'ByUser' | 'ByNamespace' };
  readonly rules?: readonly PolicyRulesWithSubjects[];
}

/** A queuing configuration (flowcontrol QueuingConfiguration). */
export interface QueuingConfiguration {
  readonly queues?: number;
  readonly handSize?: number;
  readonly queueLengthLimit?: number;
}

/** A PriorityLevelConfiguration's spec. */
export interface PriorityLevelConfigurationSpec {
  readonly type: 'Exempt' | 'Limited';
  readonly limited?: {
    readonly nominalConcurrencyShares?: number;
    readonly lendablePercent?: number;
    readonly borrowingLimitPercent?: number;
    readonly limitResponse?: { readonly type: 'Queue' | 'Reject'; readonly queuing?: QueuingConfiguration };
  };
}

/** Object metadata the controller reads and writes. */
export interface ConfigurationMeta {
  readonly name: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

/** A FlowSchema object. */
export interface FlowSchema {
  readonly apiVersion?: string;
  readonly kind?: 'FlowSchema';
  readonly metadata: ConfigurationMeta;
  readonly spec: FlowSchemaSpec;
  readonly status?: { readonly conditions?: readonly FlowSchemaCondition[] };
}

/** A condition of a FlowSchema's status. */
export interface FlowSchemaCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** A PriorityLevelConfiguration object. */
export interface PriorityLevelConfiguration {
  readonly apiVersion?: string;
  readonly kind?: 'PriorityLevelConfiguration';
  readonly metadata: ConfigurationMeta;
  readonly spec: PriorityLevelConfigurationSpec;
}
