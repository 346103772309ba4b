/**
 * Apply conflicts as kube-apiserver reports them (managedfields' NewConflictError): 409 Conflict, one cause of type
 * `FieldManagerConflict` per conflicting field, and a message that names each manager and field:
 * `Apply failed with 1 conflict: conflict with "m": .spec.x`, or for several, grouped by manager (sorted).
 */
import { failure, type Status } from '@svc-apiserver/api';
import { pathString, type FieldPath } from './field-path.js';

/** One field another manager owns. `manager` is the manager's identifier (managed-fields.ts). */
export interface FieldConflict {
  readonly manager: string;
  readonly path: FieldPath;
}

/** printManager: `"name"`, `"name" with subresource "status"`, and for Update managers `... using v1`. */
export function printManager(identifier: string): string {
  let entry: { manager?: string; operation?: string; apiVersion?: string; subresource?: string };
  try {
    entry = JSON.parse(identifier) as typeof entry;
  } catch {
    return JSON.stringify(identifier);
  }
  let out = JSON.stringify(entry.manager ?? '');
  if (entry.subresource) out += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') out += ` using ${entry.apiVersion ?? ''}`;
  return out;
}

/** The conflict message. */
export function conflictMessageFor(conflicts: readonly FieldConflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  }
  const byManager = new Map<string, FieldPath[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager)!) lines.push(`- ${pathString(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 Status of an apply conflict. */
export function conflictStatus(conflicts: readonly FieldConflict[]): Status {
  return failure('Conflict', conflictMessageFor(conflicts), {
    causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) })),
  });
}
