/**
 * EndpointSlices (pkg/registry/discovery/endpointslice): `metadata.generation` is 1 on create and moves on when
 * anything but metadata changes, and `addressType` is immutable (ValidateEndpointSliceUpdate).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';

/** The endpointslice strategy. */
export function endpointSliceStrategy(): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    validateUpdate: (object, old) => immutable('addressType', object['addressType'], old['addressType']),
  });
}
