/**
 * kubectl's layouts for everyday core kinds: ConfigMap, Secret (sizes, never values, but a service account
 * token's), Namespace (with its quotas and limit ranges), ServiceAccount (with its token secrets) and Service
 * (with its endpoints).
 */
import { core, header, meta, type Any, type Describer } from './describe-context.js';
import { writeEvents } from './describe-writer.js';
import { formatEndpoints } from './endpoints-format.js';
import { formatLabels, rfc1123z } from './go-format.js';
import { writeLimitRanges, writeResourceQuotas } from './quota-describers.js';

/** kubectl's ConfigMap layout. */
export const configMapDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(o.data ?? {}).sort()) w.write(0, `${k}:\n----\n${o.data[k]}\n`);
  w.write(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(o.binaryData ?? {}).sort()) w.write(0, `${k}: ${Buffer.from(o.binaryData[k], 'base64').length} bytes\n`);
  w.write(0, '\n');
  writeEvents(w, await ctx.events());
};

/** kubectl's Secret layout. */
export const secretDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  w.write(0, `\nType:\t${o.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  const tokenType = o.type?.endsWith('/service-account-token') === true;
  for (const k of Object.keys(o.data ?? {}).sort()) {
    const bytes = Buffer.from(o.data[k] ?? '', 'base64');
    w.write(0, k === 'token' && tokenType ? `${k}:\t${bytes.toString('utf8')}\n` : `${k}:\t${bytes.length} bytes\n`);
  }
};

/** kubectl's Namespace layout. */
export const namespaceDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, false);
  w.write(0, `Status:\t${o.status?.phase ?? ''}\n`);
  const conditions: Any[] = o.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conditions) w.write(1, `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  // a server without quotas or limit ranges answers 404: kubectl leaves those sections out then
  const quotas = await ctx.list(core('resourcequotas'), { namespace: meta(ctx.obj).name });
  if (!quotas.ok && quotas.error.code !== 404) return quotas.error;
  const limits = await ctx.list(core('limitranges'), { namespace: meta(ctx.obj).name });
  if (!limits.ok && limits.error.code !== 404) return limits.error;
  if (quotas.ok) {
    w.write(0, '\n');
    writeResourceQuotas(w, quotas.value);
  }
  if (limits.ok) {
    w.write(0, '\n');
    writeLimitRanges(w, limits.value);
  }
};

/** kubectl's ServiceAccount layout. */
export const serviceAccountDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  header(w, ctx, true);
  const listed = await ctx.list(core('secrets'), { namespace: meta(ctx.obj).namespace });
  const secrets = listed.ok ? listed.value : [];
  const existing = new Set(secrets.map((s) => meta(s).name));
  const tokens = (secrets as Any[]).filter((s) => String(s.type ?? '').endsWith('/service-account-token')
    && Object.entries(meta(s).annotations ?? {}).some(([k, v]) => k.endsWith('/service-account.name') && v === meta(o).name)
    && Object.entries(meta(s).annotations ?? {}).some(([k, v]) => k.endsWith('/service-account.uid') && v === meta(o).uid));
  const rows: Array<[string, string[]]> = [
    ['Image pull secrets:', (o.imagePullSecrets ?? []).map((s: Any) => s.name)],
    ['Mountable secrets: ', (o.secrets ?? []).map((s: Any) => s.name)],
    ['Tokens:            ', tokens.map((s) => meta(s).name)],
  ];
  for (const [title, names] of rows) {
    if (names.length === 0) w.write(0, `${title}\t<none>\n`);
    names.forEach((n, i) => w.write(0, `${i === 0 ? title : '                   '}\t${n}${existing.has(n) || secrets.length === 0 ? '' : ' (not found)'}\n`));
  }
  writeEvents(w, await ctx.events());
};

/** kubectl's Service layout. */
export const serviceDescriber: Describer = async (w, ctx) => {
  const o = ctx.obj as Any;
  const spec: Any = o.spec ?? {};
  header(w, ctx, true);
  w.write(0, `Selector:\t${formatLabels(spec.selector)}\n`);
  w.write(0, `Type:\t${spec.type ?? ''}\n`);
  if (spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${(spec.ipFamilies ?? []).join(',') || '<none>'}\n`);
  w.write(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? []).join(',') || '<none>'}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
  if (spec.loadBalancerIP) w.write(0, `IP:\t${spec.loadBalancerIP}\n`);
  if (spec.externalName) w.write(0, `External Name:\t${spec.externalName}\n`);
  const ingress: Any[] = o.status?.loadBalancer?.ingress ?? [];
  if (ingress.length > 0) w.write(0, `LoadBalancer Ingress:\t${ingress.map((i) => i.ip || i.hostname || '').join(', ')}\n`);
  const got = await ctx.get(core('endpoints'), meta(o).namespace, String(meta(o).name ?? ''));
  const endpoints = got.ok ? got.value as Any : undefined;
  for (const p of spec.ports ?? []) {
    const name = p.name || '<unset>';
    w.write(0, `Port:\t${name}\t${p.port}/${p.protocol}\n`);
    w.write(0, `TargetPort:\t${p.targetPort}/${p.protocol}\n`);
    if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol}\n`);
    w.write(0, `Endpoints:\t${formatEndpoints(endpoints, new Set([String(p.name ?? '')]))}\n`);
  }
  w.write(0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
  if (spec.externalTrafficPolicy) w.write(0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.healthCheckNodePort) w.write(0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
  if ((spec.loadBalancerSourceRanges ?? []).length > 0) w.write(0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges.join(',')}\n`);
  writeEvents(w, await ctx.events());
};
