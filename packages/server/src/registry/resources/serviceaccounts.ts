/**
 * ServiceAccounts (pkg/registry/core/serviceaccount): DNS-1123 subdomain names; a delete answers with the object.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The serviceaccount strategy. */
export function serviceAccountStrategy(): Strategy {
  return defineStrategy({ returnDeletedObject: true });
}
