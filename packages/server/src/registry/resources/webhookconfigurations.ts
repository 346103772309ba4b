/**
 * MutatingWebhookConfigurations and ValidatingWebhookConfigurations (pkg/registry/admissionregistration/
 * mutatingwebhookconfiguration and validatingwebhookconfiguration): `metadata.generation` is 1 on create and moves
 * on when the webhooks change, and an update must name the resourceVersion it replaces (AllowUnconditionalUpdate
 * false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The strategy of both webhook configuration kinds. */
export function webhookConfigurationStrategy(): Strategy {
  return defineStrategy({ tracksGeneration: true, allowUnconditionalUpdate: false });
}
