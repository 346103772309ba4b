/**
 * VolumeAttachments (pkg/registry/storage/volumeattachment, storage.svc.io/v1): `status` is the attacher's
 * (cleared on create, kept by updates, written through `/status`), and an update must name the resourceVersion it
 * replaces (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The volumeattachment strategy. */
export function volumeAttachmentStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, allowUnconditionalUpdate: false });
}
