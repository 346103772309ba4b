/**
 * Output formats of svcctl: `-o json|yaml|name` and the default column table, in kubectl's shapes.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { DiscoveredResource } from '@svc-apiserver/client';
import { stringify } from 'yaml';

/** An output format. */
export type OutputFormat = 'json' | 'yaml' | 'name' | 'table' | 'wide';

/** Parses `-o`. */
export function parseOutput(value: string | undefined): OutputFormat | undefined {
  if (value === undefined || value === '') return 'table';
  return (['json', 'yaml', 'name', 'wide'] as const).find((f) => f === value);
}

/** `configmap/x`, `lease.coordination.example.io/x`: kubectl's `-o name` form. */
export function objectName(r: DiscoveredResource, name: string): string {
  const kind = r.kind.toLowerCase();
  return r.group ? `${kind}.${r.group}/${name}` : `${kind}/${name}`;
}

/** kubectl's short age: `45s`, `12m`, `5h`, `3d`. */
export function age(creationTimestamp: string | undefined, now: number = Date.now()): string {
  if (!creationTimestamp) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(creationTimestamp)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** Left-aligned columns separated by three spaces, as kubectl's tabwriter prints them. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join('')).join('\n') + '\n';
}

/** Formats one object or several (a kubectl `List` for json/yaml). */
export function formatObjects(r: DiscoveredResource, objects: readonly KubeObject[], format: OutputFormat, single: boolean, allNamespaces: boolean): string {
  switch (format) {
    case 'json': {
      const doc = single ? objects[0] : { apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } };
      return JSON.stringify(doc, null, 4) + '\n';
    }
    case 'yaml': {
      const doc = single ? objects[0] : { apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } };
      return stringify(doc);
    }
    case 'name':
      return objects.map((o) => objectName(r, o.metadata?.name ?? '') + '\n').join('');
    case 'table':
    case 'wide': {
      const header = allNamespaces && r.namespaced ? ['NAMESPACE', 'NAME', 'AGE'] : ['NAME', 'AGE'];
      const rows = objects.map((o) => {
        const cells = [o.metadata?.name ?? '', age(o.metadata?.creationTimestamp)];
        return allNamespaces && r.namespaced ? [o.metadata?.namespace ?? '', ...cells] : cells;
      });
      return table([header, ...rows]);
    }
  }
}
