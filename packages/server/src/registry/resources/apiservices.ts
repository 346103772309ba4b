/**
 * APIServices (kube-aggregator's apiservice strategy): `status` is the server's (cleared on create, kept by
 * updates, written through `/status`), and an update must name the resourceVersion it replaces
 * (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The apiservice strategy. */
export function apiServiceStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, allowUnconditionalUpdate: false });
}
