/**
 * CustomResourceDefinitions (apiextensions-apiserver's customresourcedefinition strategy): `status` is the
 * server's (cleared on create, kept by updates, written through `/status`), `metadata.generation` moves on when the
 * spec changes, and an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The customresourcedefinition strategy. */
export function customResourceDefinitionStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, tracksGeneration: true, allowUnconditionalUpdate: false });
}
