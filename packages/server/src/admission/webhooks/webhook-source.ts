/**
 * The webhooks in force (k8s.io/apiserver/pkg/admission/configuration): the Mutating- or
 * ValidatingWebhookConfigurations of the watch cache, kept by an informer so a new or changed configuration takes
 * effect as soon as the cache has it, ordered by configuration name and then as listed in each configuration.
 * The list is rebuilt only when a configuration changes.
 */
import type { Names } from '@svc-apiserver/api';
import type { Informer } from '../../registry/informer.js';
import type { AdmissionInformers } from '../plugin.js';
import { webhookAccessors, type WebhookAccessor } from './webhook-accessor.js';

/** The webhooks of one kind of configuration. */
export interface WebhookSource {
  /** The webhooks in force, in calling order; empty until the configurations are read. */
  webhooks(): Promise<readonly WebhookAccessor[]>;
  /** {@link webhooks} without waiting, when the configurations are read and the list is built; undefined otherwise. */
  current(): readonly WebhookAccessor[] | undefined;
  /** Whether the source has read the configurations at least once. */
  hasSynced(): boolean;
}

/** A source over the configurations of `type`. */
export function webhookSource(informers: AdmissionInformers, names: Names, type: 'mutating' | 'validating'): WebhookSource {
  const resource = type === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const group = names.group('admissionregistration');
  let informer: Informer | undefined;
  let cached: readonly WebhookAccessor[] | undefined;
  const start = (): Informer | undefined => {
    if (informer !== undefined) return informer;
    informer = informers.forResource(group, resource);
    informer?.onChange(() => {
      cached = undefined;
    });
    return informer;
  };
  return {
    async webhooks() {
      const i = start();
      if (i === undefined) return [];
      if (!i.hasSynced()) await i.synced();
      if (cached === undefined) {
        const configurations = i.list().sort((a, b) => {
          const x = a.metadata?.name ?? '';
          const y = b.metadata?.name ?? '';
          return x < y ? -1 : x > y ? 1 : 0;
        });
        cached = configurations.flatMap((c) => webhookAccessors(c, type));
      }
      return cached;
    },
    current: () => (informer?.hasSynced() === true ? cached : undefined),
    hasSynced: () => informer?.hasSynced() ?? false,
  };
}
