/**
 * Services (pkg/registry/core/service): named by DNS-1035 label, status subresource. Cluster IP and node port allocation come with a later issue.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The service strategy. */
export function serviceStrategy(): Strategy {
  return defineStrategy({ nameRule: 'dns1035Label', hasStatus: true, returnDeletedObject: true });
}
