/**
 * ServiceAccounts (pkg/registry/core/serviceaccount): DNS-1123 subdomain names; a delete answers with the object.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The account a Pod runs as when it names none, which every active namespace has (kube's DefaultServiceAccountName). */
export const defaultServiceAccountName = 'default';

/** The serviceaccount strategy. */
export function serviceAccountStrategy(): Strategy {
  return defineStrategy({ returnDeletedObject: true });
}
