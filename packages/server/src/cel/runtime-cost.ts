/**
 * Runtime cost, counted as cel-go's CostTracker counts it (document 3 §Limits): a variable read or field selection
 * costs 1, a constant 0, a list literal 10 and a map literal 30, a comparison 1 (strings and lists: a tenth of the
 * shorter length), string functions a tenth of the length walked, regular expressions the input length times a
 * quarter of the pattern length, an authorization check 350000, each turn of a comprehension its body plus the
 * bookkeeping of cel-go's macro expansion. The counter halts evaluation as soon as the limit is passed.
 *
 * The same hooks give lists of list type `set` and `map` their equality, membership and concatenation (values.ts),
 * which the engine's own operators do not know.
 */
import type { AstNode } from './ast.js';
import { allNodes, children, functionName } from './ast.js';
import { internalPrefix } from './environment.js';
import { currentEvaluation } from './evaluation-state.js';
import { authzCheckCost, listLiteralBaseCost, mapCreateBaseCost, regexStringLengthCostFactor, stringTraversalCostFactor } from './limits.js';
import { celConcat, celEquals, celListContains, isCelObject, setFieldsOf } from './values.js';

/** A tree prepared for counted evaluation. */
export interface Instrumented {
  readonly root: AstNode;
  readonly nodes: number;
}

type Evaluate = (ev: unknown, ast: AstNode, ctx: unknown) => unknown;
type MacroKind = 'all' | 'exists' | 'exists_one' | 'map' | 'map_filter' | 'filter';

/** The size of a value as cel-go's Sizer reports it (code points, bytes, items, entries), 1 for others. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff) n++;
    }
    return n;
  }
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (typeof v === 'object' && v !== null && !isCelObject(v) && (v.constructor === Object || v.constructor === undefined)) return Object.keys(v).length;
  return 1;
}

/** kube's traversalCost: a tenth of every string's bytes within the value, 1 per other leaf. */
export function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * stringTraversalCostFactor);
  if (v instanceof Uint8Array) return Math.floor(v.length * stringTraversalCostFactor);
  if (Array.isArray(v)) return v.reduce<number>((a, x) => a + traversalCost(x), 0);
  if (isCelObject(v)) {
    const o = v as unknown as Record<string, unknown>;
    return setFieldsOf(v).reduce((a, f) => a + traversalCost(f.name) + traversalCost(o[f.name]), 0);
  }
  if (v instanceof Map) return [...v].reduce<number>((a, [k, x]) => a + traversalCost(k) + traversalCost(x), 0);
  if (typeof v === 'object' && v !== null && (v.constructor === Object || v.constructor === undefined)) {
    return Object.entries(v).reduce<number>((a, [k, x]) => a + traversalCost(k) + traversalCost(x), 0);
  }
  return 1;
}

const tenth = (n: number): number => Math.ceil(n * stringTraversalCostFactor);

/** The runtime cost of one call of `name` (kube's CallCost, then cel-go's defaults). */
export function callCost(name: string, args: readonly unknown[], result: unknown): number {
  switch (name) {
    case 'check': return authzCheckCost;
    case 'path': case 'group': case 'resource': case 'subresource': case 'namespace': case 'name': case 'allowed': case 'reason':
      return 1;
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf':
      return args.length > 0 ? traversalCost(args[0]) : 0;
    case 'url': case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
      return tenth(actualSize(args[0]));
    case 'replace': case 'split':
      return Math.ceil(actualSize(args[0]) * 2 * stringTraversalCostFactor);
    case 'join':
      return Math.ceil(actualSize(result) * 2 * stringTraversalCostFactor);
    case 'matches': case 'find': case 'findAll':
      return Math.ceil((1 + actualSize(args[0])) * stringTraversalCostFactor) * Math.ceil(actualSize(args[1]) * regexStringLengthCostFactor);
    case 'startsWith': case 'endsWith':
      return tenth(actualSize(args[0]));
    case 'contains':
      return tenth(actualSize(args[0])) * tenth(actualSize(args[1]));
    case 'string': case 'bytes':
      return args[0] instanceof Uint8Array || (name === 'bytes' && typeof args[0] === 'string') ? tenth(actualSize(args[0])) : 1;
    default: return 1;
  }
}

function operatorCost(op: string, l: unknown, r: unknown): number {
  switch (op) {
    case '==': case '!=':
      return tenth(Math.min(actualSize(l), actualSize(r)));
    case '<': case '<=': case '>': case '>=':
      return typeof l === 'string' || l instanceof Uint8Array ? tenth(Math.min(actualSize(l), actualSize(r))) : 1;
    case '+':
      return typeof l === 'string' || l instanceof Uint8Array ? tenth(actualSize(l) + actualSize(r)) : 1;
    case 'in':
      return Array.isArray(r) ? r.length : 1;
    default: return 1;
  }
}

/** The comprehension kind of a macro call node. */
export function macroKind(node: AstNode): MacroKind | undefined {
  if (node.op !== 'rcall' || node.meta.alternate?.op !== 'comprehension') return undefined;
  const name = node.args[0] as string;
  const argc = (node.args[2] as AstNode[]).length;
  if (name === 'map') return argc === 3 ? 'map_filter' : 'map';
  if (name === 'all' || name === 'exists' || name === 'exists_one' || name === 'filter') return name;
  return undefined;
}

/** cel-go's cost of one turn of a comprehension besides the user's expressions (loop condition and accumulation). */
export function stepOverhead(kind: MacroKind, predicate: boolean): number {
  switch (kind) {
    case 'all': return 3;
    case 'exists': return 4;
    case 'exists_one': return predicate ? 2 : 1;
    case 'map': return 12;
    case 'map_filter': return predicate ? 12 : 1;
    case 'filter': return predicate ? 13 : 1;
  }
}

/** cel-go's cost of producing a comprehension's result. */
export const resultCost = (kind: MacroKind): number => (kind === 'exists_one' ? 2 : 1);

function innerEvaluate(node: AstNode): Evaluate {
  const alternate = node.meta.alternate;
  if (alternate !== undefined) return (ev, _a, ctx) => alternate.evaluate(ev, alternate, ctx);
  const macro = node.meta.macro as ({ evaluate: (ev: unknown, m: unknown, ctx: unknown) => unknown } | undefined);
  if (macro !== undefined) return (ev, _a, ctx) => macro.evaluate(ev, macro, ctx);
  return node.meta.evaluate as Evaluate;
}

const run = (n: AstNode, ev: unknown, ctx: unknown): unknown => n.evaluate(ev, n, ctx);

/** Wraps every node of checked tree `root` with the cost counter and the list semantics of values.ts. */
export function instrument(root: AstNode): Instrumented {
  const nodes = allNodes(root);
  const last = new Map<AstNode, unknown>();
  const stepKinds = new Map<AstNode, { kind: MacroKind; predicate: AstNode | undefined }>();
  const resultKinds = new Map<AstNode, MacroKind>();
  for (const node of nodes) {
    const kind = macroKind(node);
    if (kind === undefined) continue;
    const comprehension = node.meta.alternate!;
    const args = node.args[2] as AstNode[];
    stepKinds.set(comprehension.args.step as AstNode, { kind, predicate: kind === 'map' ? undefined : args[1] });
    resultKinds.set(comprehension, kind);
  }

  for (const node of nodes) {
    const inner = innerEvaluate(node);
    const name = functionName(node);
    const isMacroCall = node.meta.alternate !== undefined || node.meta.macro !== undefined;
    const operands = children(node);
    const step = stepKinds.get(node);
    const result = resultKinds.get(node);
    let compute: Evaluate = inner;
    let cost: (v: unknown) => number;

    switch (node.op) {
      case '==': case '!=': {
        const negate = node.op === '!=';
        compute = (ev, _a, ctx) => {
          const l = run(node.left!, ev, ctx);
          const r = run(node.right!, ev, ctx);
          last.set(node.left!, l);
          last.set(node.right!, r);
          return celEquals(l, r) !== negate;
        };
        cost = () => operatorCost(node.op, last.get(node.left!), last.get(node.right!));
        break;
      }
      case '+': case 'in': {
        const handle = (node as unknown as { handle: (l: unknown, r: unknown, a: AstNode, ev: unknown) => unknown }).handle;
        compute = (ev, _a, ctx) => {
          const l = run(node.left!, ev, ctx);
          const r = run(node.right!, ev, ctx);
          last.set(node.left!, l);
          last.set(node.right!, r);
          if (node.op === '+' && Array.isArray(l) && Array.isArray(r)) return celConcat(l, r);
          if (node.op === 'in' && Array.isArray(r)) return celListContains(r, l);
          return handle.call(node, l, r, node, ev);
        };
        cost = () => operatorCost(node.op, last.get(node.left!), last.get(node.right!));
        break;
      }
      case '<': case '<=': case '>': case '>=': case '-': case '*': case '/': case '%':
        cost = () => operatorCost(node.op, last.get(operands[0]!), last.get(operands[1]!));
        break;
      case '!_': case '-_': cost = () => 1; break;
      case 'id': case '.': case '[]': cost = () => 1; break;
      case 'list': cost = () => listLiteralBaseCost; break;
      case 'map': cost = () => mapCreateBaseCost; break;
      case 'call': case 'rcall':
        if (isMacroCall) {
          cost = () => 0;
        } else {
          const publicName = name!.startsWith(internalPrefix) ? name!.slice(internalPrefix.length) : name!;
          cost = (v) => callCost(publicName, operands.map((o) => last.get(o)), v);
        }
        break;
      default: cost = () => 0;
    }
    if (step !== undefined) {
      const base = cost;
      cost = (v) => base(v) + stepOverhead(step.kind, step.predicate !== undefined && last.get(step.predicate) === true);
    }
    if (result !== undefined) {
      const base = cost;
      cost = (v) => base(v) + resultCost(result);
    }

    const counted: Evaluate = (ev, a, ctx) => {
      const state = currentEvaluation();
      if (state === undefined) return compute(ev, a, ctx);
      if (state.halted !== undefined) throw state.halted;
      const v = compute(ev, a, ctx);
      last.set(node, v);
      state.charge(cost(v));
      return v;
    };
    node.evaluate = counted;
  }
  return { root, nodes: nodes.length };
}
