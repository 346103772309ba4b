/**
 * The `x-kubernetes-validations` rules of a CRD schema, compiled (apiextensions-apiserver 1.27's
 * validation rules, document 3 §Expression language): every schema node's rules are type-checked with `self` (and
 * `oldSelf` for transition rules) of the node's expression type, `messageExpression` in the same environment with
 * a string result, and each rule's estimated worst-case cost — its program's estimate times the number of times the node can
 * occur in one object — held against the per-rule limit and, summed, against the per-CRD limit. The outcome is a
 * tree that mirrors only the schema nodes that have rules or rules below them, so validating an object walks no
 * more than it must; and the field errors of the CRD write, worded as kube words them.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { compile, type Program } from '../../cel/compile.js';
import { estimateCost } from '../../cel/cost-estimator.js';
import { celEnvironment } from '../../cel/environment.js';
import {
  crdCostContributorMessage, crdCostErrorMessage, costErrorMessage, maxCardinality, multiplyCost, ruleCostErrorMessage, staticEstimatedCostLimit,
  staticEstimatedCrdCostLimit,
} from '../../cel/limits.js';
import { referencesVariable } from '../../cel/references.js';
import { declTypeOf, type DeclType, type StructuralSchema } from '../../cel/schema-types.js';
import {
  additionalPropertiesOf, isRecord, itemsOf, listMapKeysOf, maxWalkDepth, numberOf, propertiesOf, stringOf, type JsonSchemaProps,
} from '../schema/json-schema-props.js';

/** One compiled rule of a node. */
export interface CompiledRule {
  readonly rule: string;
  readonly message?: string;
  readonly program: Program;
  readonly messageProgram?: Program;
  /** The rule reads `oldSelf`: it runs on updates with an old value only. */
  readonly transition: boolean;
}

/** A schema node with rules at or below it. */
export interface RuleNode {
  /** The node's `type` (the value kube shows in a failed rule's field error). */
  readonly type: string;
  readonly rules: readonly CompiledRule[];
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly items?: RuleNode;
  readonly additionalProperties?: RuleNode;
  /** `x-kubernetes-list-type: map` keys: list items are correlated with old items by them. */
  readonly mapKeys?: readonly string[];
}

/** The compiled rules of a schema and the errors met compiling them. */
export interface CompiledSchemaRules {
  /** Undefined when no node has rules (nothing to evaluate). */
  readonly root: RuleNode | undefined;
  readonly errors: readonly FieldError[];
}

/** A rule as written in a schema node. */
interface WrittenRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
}

interface Walk {
  readonly errors: FieldError[];
  /** Each rule's estimated cost with its path, for the per-CRD total. */
  readonly costs: { path: string; cost: number }[];
  typeCounter: number;
}

const hasNewlines = (s: string): boolean => /[\r\n]/.test(s);

function writtenRules(node: JsonSchemaProps): WrittenRule[] {
  const v = node['x-kubernetes-validations'];
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((r) => ({
    rule: typeof r['rule'] === 'string' ? r['rule'] : '',
    ...(typeof r['message'] === 'string' ? { message: r['message'] } : {}),
    ...(typeof r['messageExpression'] === 'string' ? { messageExpression: r['messageExpression'] } : {}),
  }));
}

/** kube's checks of a rule's text and message before compiling (ValidateCustomResourceDefinitionOpenAPISchema). */
function textErrors(r: WrittenRule, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const rule = r.rule.trim();
  const message = (r.message ?? '').trim();
  if (rule === '') errors.push(fieldError.required(`${path}.rule`, 'rule is not specified'));
  else if (r.message !== undefined && r.message.length > 0 && message === '') {
    errors.push(fieldError.invalid(`${path}.message`, r.message, 'message must be non-empty if specified'));
  } else if (hasNewlines(message)) errors.push(fieldError.invalid(`${path}.message`, r.message, 'message must not contain line breaks'));
  else if (hasNewlines(rule) && message === '') errors.push(fieldError.required(`${path}.message`, 'message must be specified if rule contains line breaks'));
  if (r.messageExpression !== undefined && r.messageExpression.length > 0 && r.messageExpression.trim() === '') {
    errors.push(fieldError.required(`${path}.messageExpression`, 'messageExpression must be non-empty if specified'));
  }
  return errors;
}

/**
 * How many times a node can occur in one object: the product of maxItems and maxProperties of the lists and maps
 * above it, unbounded ones counting as many values as fit into a request (kube's unboundedCardinality).
 */
function elementCount(declared: number | undefined, element: DeclType | undefined): number {
  if (declared !== undefined) return Math.max(declared, 0);
  return maxCardinality(element?.minSerializedSize ?? 1);
}

/**
 * Compiles the rules of `schema` (a version's `openAPIV3Schema`); `path` names it in errors
 * (`spec.versions[0].schema.openAPIV3Schema`).
 */
export function compileSchemaRules(schema: JsonSchemaProps, path: string): CompiledSchemaRules {
  const walk: Walk = { errors: [], costs: [], typeCounter: 0 };
  const root = compileNode(schema, path, walk, { root: true, cardinality: 1, uncorrelatable: undefined, depth: 0 });
  const total = walk.costs.reduce((sum, c) => sum + c.cost, 0);
  if (total > staticEstimatedCrdCostLimit) {
    walk.errors.push(fieldError.forbidden(path, crdCostErrorMessage(total)));
    // kube names the most expensive rules, up to four, beside the total.
    for (const c of [...walk.costs].sort((a, b) => b.cost - a.cost).slice(0, 4)) walk.errors.push(fieldError.forbidden(c.path, crdCostContributorMessage));
  }
  return { root, errors: walk.errors };
}

interface Position {
  readonly root: boolean;
  readonly cardinality: number;
  /** The path of the nearest list above whose items cannot be matched with old items, if any. */
  readonly uncorrelatable: string | undefined;
  readonly depth: number;
}

function compileNode(node: JsonSchemaProps, path: string, walk: Walk, at: Position): RuleNode | undefined {
  if (at.depth > maxWalkDepth) return undefined;
  const rules = compileRules(node, path, walk, at);
  const properties = new Map<string, RuleNode>();
  for (const [key, child] of propertiesOf(node) ?? []) {
    const compiled = compileNode(child, `${path}.properties[${key}]`, walk, { ...at, root: false, depth: at.depth + 1 });
    if (compiled !== undefined) properties.set(key, compiled);
  }
  let items: RuleNode | undefined;
  const itemSchema = itemsOf(node);
  const listType = stringOf(node, 'x-kubernetes-list-type');
  if (itemSchema !== undefined) {
    const element = declTypeOf(itemSchema as StructuralSchema, { typeName: 'item' });
    items = compileNode(itemSchema, `${path}.items`, walk, {
      root: false, depth: at.depth + 1,
      cardinality: multiplyCost(at.cardinality, elementCount(numberOf(node, 'maxItems'), element)),
      uncorrelatable: listType === 'map' ? at.uncorrelatable : at.uncorrelatable ?? path,
    });
  }
  let additionalProperties: RuleNode | undefined;
  const valueSchema = node['additionalProperties'] === undefined ? undefined : additionalPropertiesOf(node);
  if (valueSchema !== undefined && Object.keys(valueSchema).length > 0) {
    const element = declTypeOf(valueSchema as StructuralSchema, { typeName: 'value' });
    additionalProperties = compileNode(valueSchema, `${path}.additionalProperties`, walk, {
      ...at, root: false, depth: at.depth + 1,
      cardinality: multiplyCost(at.cardinality, elementCount(numberOf(node, 'maxProperties'), element)),
    });
  }
  if (rules.length === 0 && properties.size === 0 && items === undefined && additionalProperties === undefined) return undefined;
  const mapKeys = listType === 'map' ? listMapKeysOf(node) : [];
  return {
    type: stringOf(node, 'type') ?? '',
    rules,
    ...(properties.size > 0 ? { properties } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
    ...(mapKeys.length > 0 ? { mapKeys } : {}),
  };
}

function compileRules(node: JsonSchemaProps, path: string, walk: Walk, at: Position): CompiledRule[] {
  const written = writtenRules(node);
  if (written.length === 0) return [];
  const selfType = declTypeOf(node as StructuralSchema, {
    typeName: `rule${walk.typeCounter++}`, isResourceRoot: at.root || node['x-kubernetes-embedded-resource'] === true,
  });
  const compiled: CompiledRule[] = [];
  written.forEach((r, i) => {
    const rulePath = `${path}.x-kubernetes-validations[${i}]`;
    const textual = textErrors(r, rulePath);
    walk.errors.push(...textual);
    if (r.rule.trim() === '') return;
    if (selfType === undefined) {
      walk.errors.push(fieldError.invalid(`${rulePath}.rule`, r.rule, 'compilation failed: the schema node has no expression type'));
      return;
    }
    const rulesEnv = celEnvironment([{ name: 'self', type: selfType }, { name: 'oldSelf', type: selfType }]);
    const program = compile(r.rule, rulesEnv);
    if (!program.ok) {
      walk.errors.push(fieldError.invalid(`${rulePath}.rule`, r.rule, `compilation failed: ${program.error.message}`));
      return;
    }
    if (program.value.outputType !== 'bool' && program.value.outputType !== 'dyn') {
      walk.errors.push(fieldError.invalid(`${rulePath}.rule`, r.rule, 'compilation failed: cel expression must evaluate to a bool'));
      return;
    }
    const cost = multiplyCost(estimateCost(program.value).max, at.cardinality);
    if (cost > staticEstimatedCostLimit) walk.errors.push(fieldError.forbidden(`${rulePath}.rule`, ruleCostErrorMessage(cost)));
    walk.costs.push({ path: `${rulePath}.rule`, cost });
    const transition = referencesVariable(program.value, 'oldSelf');
    if (transition && at.uncorrelatable !== undefined) {
      walk.errors.push(fieldError.invalid(`${rulePath}.rule`, r.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${at.uncorrelatable}`));
    }
    let messageProgram: Program | undefined;
    if (r.messageExpression !== undefined && r.messageExpression.trim() !== '') {
      const m = compile(r.messageExpression, rulesEnv);
      if (!m.ok) {
        walk.errors.push(fieldError.invalid(`${rulePath}.messageExpression`, r.messageExpression, `messageExpression compilation failed: ${m.error.message}`));
      } else if (m.value.outputType !== 'string' && m.value.outputType !== 'dyn') {
        walk.errors.push(fieldError.invalid(`${rulePath}.messageExpression`, r.messageExpression, 'messageExpression must evaluate to a string'));
      } else {
        const messageCost = multiplyCost(estimateCost(m.value).max, at.cardinality);
        if (messageCost > staticEstimatedCostLimit) {
          walk.errors.push(fieldError.forbidden(`${rulePath}.messageExpression`, costErrorMessage('estimated messageExpression cost', messageCost, staticEstimatedCostLimit)));
        }
        walk.costs.push({ path: `${rulePath}.messageExpression`, cost: messageCost });
        messageProgram = m.value;
      }
    }
    if (textual.length > 0) return;
    compiled.push({
      rule: r.rule,
      ...(r.message !== undefined && r.message.trim() !== '' ? { message: r.message.trim() } : {}),
      program: program.value,
      ...(messageProgram !== undefined ? { messageProgram } : {}),
      transition,
    });
  });
  return compiled;
}
