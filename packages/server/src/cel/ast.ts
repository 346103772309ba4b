/**
 * A typed view of the cel-js syntax tree that compile.ts, cost-estimator.ts and runtime-cost.ts walk: each node's
 * operator and operands, the type the checker gave it, and the nodes a macro expanded into.
 */

/** A checked type as cel-js gives it. */
export interface EngineType {
  readonly name: string;
  readonly kind: string;
  readonly valueType?: EngineType;
  readonly keyType?: EngineType;
}

/** One node of the tree. */
export interface AstNode {
  readonly op: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- operands differ per operator (see children())
  args: any;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly input: string;
  readonly checkedType?: EngineType;
  readonly meta: { readonly alternate?: AstNode; readonly macro?: { readonly args?: readonly AstNode[] } & Record<string, unknown>; readonly evaluate?: unknown };
  left?: AstNode;
  right?: AstNode;
  evaluate: (ev: unknown, ast: AstNode, ctx: unknown) => unknown;
}

/** The operand nodes of `node` as the user wrote them (macros not expanded). */
export function children(node: AstNode): AstNode[] {
  const a = node.args;
  switch (node.op) {
    case 'value': case 'id': case 'accuValue': case 'accuInc': return [];
    case '.': case '.?': return [a[0]];
    case 'call': return [...a[1]];
    case 'rcall': return [a[1], ...a[2]];
    case 'list': return [...a];
    case 'map': return a.flatMap((e: [AstNode, AstNode]) => [e[0], e[1]]);
    case '!_': case '-_': case 'accuPush': return [a];
    case 'comprehension': return [a.iterable, a.init, a.step];
    default: return Array.isArray(a) ? (a as unknown[]).filter((x): x is AstNode => typeof x === 'object' && x !== null && 'op' in x) : [];
  }
}

/** The function name of a call node. */
export function functionName(node: AstNode): string | undefined {
  return node.op === 'call' || node.op === 'rcall' ? node.args[0] : undefined;
}

/** Every node under `root`, including the nodes macros expanded into. */
export function allNodes(root: AstNode): AstNode[] {
  const out: AstNode[] = [];
  const seen = new Set<AstNode>();
  const visit = (n: AstNode | undefined): void => {
    if (n === undefined || seen.has(n)) return;
    seen.add(n);
    out.push(n);
    for (const c of children(n)) visit(c);
    visit(n.meta.alternate);
    for (const c of n.meta.macro?.args ?? []) visit(c);
  };
  visit(root);
  return out;
}
