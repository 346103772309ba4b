/**
 * A policy's `status.typeChecking` (the 1.27 ValidatingAdmissionPolicy type checker): each validation's expression
 * is checked again with `object` and `oldObject` typed as each kind the policy's resource rules name exactly (rules
 * with wildcards are not checked), from the kind's published schema or its CRD's schema; what fails to check is
 * reported as an expression warning, `<group>/<version>, Kind=<kind>: <compile error>` per kind.
 */
import { admissionVariables } from '../../cel/admission-variables.js';
import { compile } from '../../cel/compile.js';
import { celEnvironment } from '../../cel/environment.js';
import { declTypeOf, type DeclType, type StructuralSchema } from '../../cel/schema-types.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { generatedSchemas } from '../../schema/generated-data.js';
import { refName } from '../../schema/openapi-schema.js';
import type { Policy } from './policy-accessor.js';

/** One warning of `status.typeChecking.expressionWarnings`. */
export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

/** A kind a policy is checked against. */
interface CheckedKind {
  readonly label: string;
  readonly type: DeclType;
}

const exact = (values: readonly string[]): string[] => values.filter((v) => v !== '*' && !v.includes('/'));

function kindType(def: ResourceDef): DeclType | undefined {
  const schemas = generatedSchemas();
  const schema = (def.custom?.schema ?? (def.schemaName !== undefined ? schemas[def.schemaName] : undefined)) as StructuralSchema | undefined;
  if (schema === undefined) return undefined;
  const typeName = `typecheck.${(def.group || 'core').replace(/[^A-Za-z0-9_.]/g, '_')}.${def.version}.${def.kind}`;
  return declTypeOf(schema, { typeName, isResourceRoot: true, resolve: (ref) => schemas[refName(ref)] as StructuralSchema | undefined });
}

/** The kinds a policy's rules name exactly, as served by `lookup`. */
function checkedKinds(policy: Policy, lookup: (group: string, version: string, resource: string) => ResourceDef | undefined): CheckedKind[] {
  const out: CheckedKind[] = [];
  const seen = new Set<string>();
  for (const rule of policy.matchConstraints?.resourceRules ?? []) {
    if (rule.apiGroups.includes('*') || rule.apiVersions.includes('*')) continue;
    for (const group of rule.apiGroups) {
      for (const version of exact(rule.apiVersions)) {
        for (const resource of exact(rule.resources)) {
          const def = lookup(group, version, resource);
          if (def === undefined) continue;
          const label = `${group === '' ? '' : `${group}/`}${version}, Kind=${def.kind}`;
          if (seen.has(label)) continue;
          seen.add(label);
          const type = kindType(def);
          if (type !== undefined) out.push({ label, type });
        }
      }
    }
  }
  return out;
}

/** The expression warnings of `policy`. */
export function typeCheckPolicy(policy: Policy, lookup: (group: string, version: string, resource: string) => ResourceDef | undefined): ExpressionWarning[] {
  const kinds = checkedKinds(policy, lookup);
  if (kinds.length === 0) return [];
  const params = policy.paramKind !== undefined;
  const warnings: ExpressionWarning[] = [];
  policy.validations.forEach((v, i) => {
    const issues: string[] = [];
    for (const k of kinds) {
      const c = compile(v.expression, celEnvironment(admissionVariables({ params, objectType: k.type })));
      if (!c.ok) issues.push(`${k.label}: ${c.error.message}`);
    }
    if (issues.length > 0) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: issues.join('\n') });
  });
  return warnings;
}
