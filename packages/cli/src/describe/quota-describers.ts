/**
 * kubectl's layouts of a ResourceQuota (its scopes explained, used against hard) and a LimitRange (one row a limit
 * item and resource), and the `Resource Quotas` and `Resource Limits` sections a Namespace's layout shows of the
 * same objects (DescribeResourceQuotas, DescribeLimitRanges).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { byName, writeNameAndNamespace, type Any, type Describer } from './describe-context.js';
import type { DescribeWriter } from './describe-writer.js';
import { canonicalQuantity, formatQuantity, parseQuantity, quantityValue, unitQuantity, zeroQuantity } from './quantity.js';

/** kubectl's helpTextForResourceQuotaScope. */
const scopeHelp: Readonly<Record<string, string>> = {
  Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
  NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
  BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
  NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

/** `Scopes:` and a help line each, at `level` with `bullet` before each help text. */
function writeScopes(w: DescribeWriter, quota: Any, level: number, bullet: string): void {
  const scopes = [...((quota.spec?.scopes ?? []) as string[])].sort();
  if (scopes.length === 0) return;
  w.write(level, `Scopes:\t${scopes.join(', ')}\n`);
  for (const scope of scopes) if (scopeHelp[scope]) w.write(level, `${bullet}${scopeHelp[scope]}\n`);
}

/** kubectl's ResourceQuota layout: a used quantity shows in its hard limit's format. */
export const resourceQuotaDescriber: Describer = async (w, ctx) => {
  const quota = ctx.obj as Any;
  writeNameAndNamespace(w, ctx.obj);
  writeScopes(w, quota, 0, ' * ');
  w.write(0, 'Resource\tUsed\tHard\n');
  w.write(0, '--------\t----\t----\n');
  const hard: Any = quota.status?.hard ?? {};
  for (const name of Object.keys(hard).sort()) {
    const h = parseQuantity(hard[name]) ?? zeroQuantity;
    const parsed = parseQuantity(quota.status?.used?.[name]);
    // an absent used value has no format, so it too takes the hard limit's
    const used = parsed !== undefined && parsed.format === h.format ? parsed : unitQuantity(quantityValue(parsed ?? zeroQuantity), h.format);
    w.write(0, `${name}\t${formatQuantity(used)}\t${formatQuantity(h)}\n`);
  }
};

/** kubectl's DescribeResourceQuotas: every quota of a namespace by name. */
export function writeResourceQuotas(w: DescribeWriter, quotas: readonly KubeObject[]): void {
  if (quotas.length === 0) {
    w.write(0, 'No resource quota.\n');
    return;
  }
  w.write(0, 'Resource Quotas\n');
  for (const q of byName(quotas) as Any[]) {
    w.write(1, `Name:\t${q.metadata?.name ?? ''}\n`);
    writeScopes(w, q, 1, '* ');
    w.write(1, 'Resource\tUsed\tHard\n');
    w.write(1, '--------\t---\t---\n');
    const hard: Any = q.status?.hard ?? {};
    for (const name of Object.keys(hard).sort()) w.write(1, `${name}\t${canonicalQuantity(q.status?.used?.[name] ?? 0)}\t${canonicalQuantity(hard[name])}\n`);
  }
}

/**
 * kubectl's describeLimitRangeSpec: a row for each resource of each limit item, `-` where the item sets no value.
 * kubectl walks the resources in Go's random map order; they print here by name.
 */
function writeLimitRangeSpec(w: DescribeWriter, spec: Any | undefined, prefix: string): void {
  for (const item of spec?.limits ?? []) {
    const columns: Any[] = [item.min, item.max, item.defaultRequest, item.default, item.maxLimitRequestRatio];
    const names = new Set<string>(columns.flatMap((c) => Object.keys(c ?? {})));
    for (const name of [...names].sort()) {
      const values = columns.map((c) => (c?.[name] === undefined ? '-' : canonicalQuantity(c[name])));
      w.write(0, `${prefix}${item.type ?? ''}\t${name}\t${values.join('\t')}\n`);
    }
  }
}

const limitHeader = 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n';
const limitRule = '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n';

/** kubectl's DescribeLimitRanges: every limit range of a namespace in one table. */
export function writeLimitRanges(w: DescribeWriter, limitRanges: readonly KubeObject[]): void {
  if (limitRanges.length === 0) {
    w.write(0, 'No LimitRange resource.\n');
    return;
  }
  w.write(0, `Resource Limits\n ${limitHeader}`);
  w.write(0, ` ${limitRule}`);
  for (const lr of limitRanges as Any[]) writeLimitRangeSpec(w, lr.spec, ' ');
}

/** kubectl's LimitRange layout. */
export const limitRangeDescriber: Describer = async (w, ctx) => {
  writeNameAndNamespace(w, ctx.obj);
  w.write(0, limitHeader);
  w.write(0, limitRule);
  writeLimitRangeSpec(w, (ctx.obj as Any).spec, '');
};
