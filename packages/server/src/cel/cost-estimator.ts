/**
 * The static worst-case cost of a compiled expression, in the units of cel-go's checker cost estimator with
 * kube-apiserver 1.27's library estimates (document 3 §Limits): sizes of strings, lists and maps come from the
 * declared types (maxLength, maxItems, maxProperties, or what fits in one request — schema-types.ts), comprehensions
 * cost their range's size times their body, and unknown sizes are unbounded. kube-apiserver refuses a CRD rule whose
 * estimate (times the number of times the rule can run) is over the limit; limits.ts words the refusal.
 */
import type { AstNode, EngineType } from './ast.js';
import { functionName } from './ast.js';
import type { Program } from './compile.js';
import { internalPrefix } from './environment.js';
import {
  authzCheckCost, constCost, listCreateBaseCost, listLiteralBaseCost, mapCreateBaseCost, maxCost, regexStringLengthCostFactor, selectAndIdentCost,
  stringTraversalCostFactor,
} from './limits.js';
import { macroKind } from './runtime-cost.js';
import type { DeclType } from './schema-types.js';

/** A range of costs or sizes. */
export interface CostEstimate {
  readonly min: number;
  readonly max: number;
}

interface Estimate {
  readonly cost: CostEstimate;
  /** A size known from the expression itself (literals, results of sized functions). */
  readonly size?: CostEstimate;
  /** The declared type the value comes from, when it is a variable or a selection from one. */
  readonly decl?: DeclType;
}

const sat = (n: number): number => (n > maxCost || Number.isNaN(n) ? maxCost : n);
const ce = (min: number, max: number = min): CostEstimate => ({ min: sat(min), max: sat(max) });
const add = (a: CostEstimate, b: CostEstimate): CostEstimate => ce(a.min + b.min, a.max + b.max);
const mul = (a: CostEstimate, b: CostEstimate): CostEstimate => ce(a.min * b.min, a.max * b.max);
const factor = (a: CostEstimate, f: number): CostEstimate => ce(Math.ceil(a.min * f), Math.ceil(a.max * f));
const union = (a: CostEstimate, b: CostEstimate): CostEstimate => ce(Math.min(a.min, b.min), Math.max(a.max, b.max));
const unknownSize = ce(0, maxCost);
const one = ce(1);

const keyType: DeclType = { kind: 'scalar', scalar: 'string', maxElements: 0, minSerializedSize: 2 };

function sizeOf(e: Estimate): CostEstimate {
  if (e.size !== undefined) return e.size;
  if (e.decl !== undefined) return ce(0, e.decl.maxElements);
  return unknownSize;
}

const isKind = (t: EngineType | undefined, ...names: string[]): boolean => t !== undefined && names.includes(t.name);

class Estimator {
  /**
   * kube's size estimator walks every identifier's path from `self`, so a name that is no variable (a type name such
   * as `string`, an iteration variable over an unsized range) gets the size of `self`.
   */
  private readonly rootSize: CostEstimate | undefined;

  constructor(private readonly variables: ReadonlyMap<string, DeclType>) {
    const self = variables.get('self');
    this.rootSize = self === undefined ? undefined : ce(0, self.maxElements);
  }

  estimate(node: AstNode, scope: ReadonlyMap<string, DeclType | undefined>): Estimate {
    switch (node.op) {
      case 'value': {
        const v: unknown = node.args;
        const size = typeof v === 'string' ? Buffer.byteLength(v) : v instanceof Uint8Array ? v.length : 1;
        return { cost: ce(constCost), size: ce(size) };
      }
      case 'id': {
        const name = node.args as string;
        const decl = scope.has(name) ? scope.get(name) : this.variables.get(name);
        if (decl !== undefined) return { cost: ce(selectAndIdentCost), decl };
        return this.rootSize === undefined ? { cost: ce(selectAndIdentCost) } : { cost: ce(selectAndIdentCost), size: this.rootSize };
      }
      case '.': {
        const operand = this.estimate(node.args[0], scope);
        const field = node.args[1] as string;
        const d = operand.decl;
        const decl = d?.kind === 'object' ? d.fields.get(field)?.type : d?.kind === 'map' ? d.value : undefined;
        const cost = add(operand.cost, ce(selectAndIdentCost));
        return decl === undefined ? { cost } : { cost, decl };
      }
      case '[]': {
        const [a, b] = (node.args as AstNode[]).map((n) => this.estimate(n, scope));
        return { cost: add(one, add(a!.cost, b!.cost)) };
      }
      case 'list': {
        const items = (node.args as AstNode[]).map((n) => this.estimate(n, scope));
        return { cost: items.reduce((acc, x) => add(acc, x.cost), ce(listLiteralBaseCost)), size: ce(items.length) };
      }
      case 'map': {
        let cost = ce(mapCreateBaseCost);
        for (const [k, v] of node.args as [AstNode, AstNode][]) cost = add(cost, add(this.estimate(k, scope).cost, this.estimate(v, scope).cost));
        return { cost, size: ce((node.args as unknown[]).length) };
      }
      case '?:': {
        const [c, t, f] = (node.args as AstNode[]).map((n) => this.estimate(n, scope));
        return { cost: add(c!.cost, union(t!.cost, f!.cost)), size: union(sizeOf(t!), sizeOf(f!)) };
      }
      case '&&': case '||': {
        const [l, r] = (node.args as AstNode[]).map((n) => this.estimate(n, scope));
        return { cost: ce(l!.cost.min, l!.cost.max + r!.cost.max) };
      }
      case '!_': case '-_':
        return { cost: add(one, this.estimate(node.args as AstNode, scope).cost) };
      case 'call': case 'rcall':
        return this.call(node, scope);
      default: {
        const [l, r] = (node.args as AstNode[]).map((n) => this.estimate(n, scope));
        return this.operator(node, l!, r!);
      }
    }
  }

  private operator(node: AstNode, l: Estimate, r: Estimate): Estimate {
    const args = add(l.cost, r.cost);
    const lt = (node.args as AstNode[])[0]!.checkedType;
    switch (node.op) {
      case '==': case '!=': {
        const smallest = Math.max(1, Math.min(sizeOf(l).max, sizeOf(r).max));
        return { cost: add(factor(ce(1, smallest), stringTraversalCostFactor), args) };
      }
      case '<': case '<=': case '>': case '>=':
        if (isKind(lt, 'string', 'bytes')) {
          const smallest = Math.max(1, Math.min(sizeOf(l).max, sizeOf(r).max));
          return { cost: add(factor(ce(1, smallest), stringTraversalCostFactor), args) };
        }
        return { cost: add(one, args) };
      case '+': {
        const size = add(sizeOf(l), sizeOf(r));
        if (isKind(lt, 'string', 'bytes')) return { cost: add(factor(size, stringTraversalCostFactor), args), size };
        if (lt?.kind === 'list') return { cost: add(one, args), size };
        return { cost: add(one, args) };
      }
      case 'in': {
        const rt = (node.args as AstNode[])[1]!.checkedType;
        if (rt?.kind === 'list') return { cost: add(sizeOf(r), args) };
        return { cost: add(one, args) };
      }
      default: return { cost: add(one, args) };
    }
  }

  private macro(node: AstNode, scope: ReadonlyMap<string, DeclType | undefined>): Estimate | undefined {
    const name = functionName(node);
    if (name === 'has' && node.op === 'call') return { cost: ce(0) };
    const kind = macroKind(node);
    if (kind === undefined) return undefined;
    const range = this.estimate(node.args[1] as AstNode, scope);
    const [iterVar, ...body] = node.args[2] as AstNode[];
    const rd = range.decl;
    const elem = rd?.kind === 'list' ? rd.elem : rd?.kind === 'map' ? keyType : undefined;
    const inner = new Map(scope).set(iterVar!.args as string, elem);
    const count = sizeOf(range);
    const b = body.map((n) => this.estimate(n, inner).cost);
    let init = ce(0);
    let result = ce(1);
    let step: CostEstimate;
    switch (kind) {
      case 'all': step = ce(3, 3 + b[0]!.max); break;
      case 'exists': step = ce(4, 4 + b[0]!.max); break;
      case 'exists_one': step = ce(b[0]!.min + 1, b[0]!.max + 2); result = ce(2); break;
      case 'map': init = ce(listCreateBaseCost); step = ce(12 + b[0]!.min, 12 + b[0]!.max); break;
      case 'map_filter': init = ce(listCreateBaseCost); step = ce(b[0]!.min + 1, b[0]!.max + 12 + b[1]!.max); break;
      case 'filter': init = ce(listCreateBaseCost); step = ce(b[0]!.min + 1, b[0]!.max + 13); break;
    }
    return { cost: add(add(add(range.cost, init), result), mul(count, step)) };
  }

  private call(node: AstNode, scope: ReadonlyMap<string, DeclType | undefined>): Estimate {
    const asMacro = this.macro(node, scope);
    if (asMacro !== undefined) return asMacro;
    let name = functionName(node)!;
    if (name.startsWith(internalPrefix)) name = name.slice(internalPrefix.length);
    const targetNode = node.op === 'rcall' ? (node.args[1] as AstNode) : undefined;
    const argNodes = (node.op === 'rcall' ? node.args[2] : node.args[1]) as AstNode[];
    const target = targetNode === undefined ? undefined : this.estimate(targetNode, scope);
    const args = argNodes.map((n) => this.estimate(n, scope));
    const argCost = [target, ...args].reduce<CostEstimate>((acc, x) => (x === undefined ? acc : add(acc, x.cost)), ce(0));
    const own = this.callEstimate(name, targetNode, target, argNodes, args);
    return own.size === undefined ? { cost: add(own.cost, argCost) } : { cost: add(own.cost, argCost), size: own.size };
  }

  private callEstimate(name: string, targetNode: AstNode | undefined, target: Estimate | undefined, argNodes: readonly AstNode[], args: readonly Estimate[]): { cost: CostEstimate; size?: CostEstimate } {
    switch (name) {
      case 'check': return { cost: ce(authzCheckCost) };
      case 'path': case 'group': case 'resource': case 'subresource': case 'namespace': case 'name': case 'allowed': case 'reason':
        if (target !== undefined) return { cost: one };
        break;
      case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf':
        if (target !== undefined) {
          const d = target.decl;
          if (d?.kind === 'list') {
            let el = one;
            if (d.elem.kind === 'scalar' && (d.elem.scalar === 'string' || d.elem.scalar === 'bytes')) {
              el = add(el, factor(ce(0, d.elem.maxElements), stringTraversalCostFactor));
            }
            return { cost: mul(sizeOf(target), el) };
          }
          return { cost: factor(sizeOf(target), stringTraversalCostFactor) };
        }
        break;
      case 'url':
        if (args.length === 1 && target === undefined) return { cost: factor(sizeOf(args[0]!), stringTraversalCostFactor) };
        break;
      case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
        if (target !== undefined) {
          const sz = sizeOf(target);
          return { cost: factor(sz, stringTraversalCostFactor), size: sz };
        }
        break;
      case 'replace':
        if (target !== undefined && args.length >= 2) return { cost: factor(sizeOf(target), 2 * stringTraversalCostFactor), size: replaceSize(sizeOf(target), sizeOf(args[0]!), sizeOf(args[1]!)) };
        break;
      case 'split':
        if (target !== undefined) {
          const sz = sizeOf(target);
          let max = sz.max;
          const limit = argNodes[1];
          if (limit?.op === 'value' && typeof limit.args === 'bigint') max = limit.args < 0n ? maxCost : Number(limit.args);
          return { cost: factor(sz, 2 * stringTraversalCostFactor), size: ce(0, max) };
        }
        break;
      case 'join':
        if (target !== undefined) {
          const listSize = sizeOf(target);
          let sz = ce(0);
          const d = target.decl;
          if (d?.kind === 'list') sz = mul(listSize, ce(0, d.elem.maxElements));
          if (args.length > 0) {
            const sep = sizeOf(args[0]!);
            sz = add(sz, mul(sep, ce(Math.max(0, listSize.min - 1), Math.max(0, listSize.max - 1))));
          }
          return { cost: factor(sz, stringTraversalCostFactor), size: sz };
        }
        break;
      case 'find': case 'findAll': case 'matches': {
        const str = target ?? args[0];
        const pattern = target !== undefined ? args[0] : args[1];
        if (str !== undefined && pattern !== undefined) {
          const sz = sizeOf(str);
          const strCost = factor(add(sz, one), stringTraversalCostFactor);
          const regexCost = factor(sizeOf(pattern), regexStringLengthCostFactor);
          const cost = mul(strCost, regexCost);
          return name === 'matches' ? { cost } : { cost, size: ce(0, sz.max) };
        }
        break;
      }
      case 'contains':
        if (target !== undefined && args.length === 1) {
          return { cost: mul(factor(sizeOf(target), stringTraversalCostFactor), factor(sizeOf(args[0]!), stringTraversalCostFactor)) };
        }
        break;
      case 'startsWith': case 'endsWith':
        if (args.length === 1) return { cost: factor(sizeOf(args[0]!), stringTraversalCostFactor) };
        break;
      case 'string': case 'bytes':
        if (targetNode === undefined && args.length === 1) {
          const from = argNodes[0]!.checkedType;
          if ((name === 'string' && isKind(from, 'bytes')) || (name === 'bytes' && isKind(from, 'string'))) {
            return { cost: factor(sizeOf(args[0]!), stringTraversalCostFactor) };
          }
        }
        break;
      default: break;
    }
    return { cost: one };
  }
}

function replaceSize(sz: CostEstimate, toReplace: CostEstimate, replaceWith: CostEstimate): CostEstimate {
  let countMax: number;
  let retainedMax = 0;
  if (toReplace.min === 0) {
    countMax = sz.max < maxCost ? sz.max + 1 : sz.max;
    retainedMax = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    countMax = 0;
    retainedMax = sz.max;
  } else {
    countMax = Math.ceil(sz.max / toReplace.min);
  }
  let countMin: number;
  let retainedMin = 0;
  if (toReplace.max === 0) {
    countMin = sz.min < maxCost ? sz.min + 1 : sz.min;
    retainedMin = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    countMin = 0;
    retainedMin = sz.min;
  } else {
    countMin = Math.ceil(sz.min / toReplace.max);
  }
  return add(mul(ce(countMin, countMax), replaceWith), ce(retainedMin, retainedMax));
}

/**
 * The estimated cost range of one evaluation of `program` (cel-go's EstimateCost with kube's CostEstimator). The
 * maximum is what kube-apiserver compares with its limits.
 */
export function estimateCost(program: Program): CostEstimate {
  return new Estimator(program.environment.variables).estimate(program.tree.root, new Map()).cost;
}
