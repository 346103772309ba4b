/**
 * Compiling an expression (cel-go's Compile: parse, then type-check against the environment's declarations), as
 * kube-apiserver does when a CRD rule or a policy is written: syntax errors, undeclared references, unknown fields
 * and overload mismatches are compile errors, worded `ERROR: <input>:line:column: message` with the line and a caret.
 * Functions that kube-apiserver 1.27 does not have (cel-js' `cel.bind`, optional syntax, `bytes.json()`...) are
 * undeclared here too, and constant regular expressions are compiled up front. Programs are cached per environment
 * and expression, so evaluating a request never compiles.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { allNodes, children, functionName, type AstNode, type EngineType } from './ast.js';
import { internalPrefix, replacedMemberFunctions, type CelEnvironment } from './environment.js';
import { compileRegex } from './regex.js';
import { instrument, type Instrumented } from './runtime-cost.js';

/** A compiled expression. */
export interface Program {
  readonly expression: string;
  readonly environment: CelEnvironment;
  /** The checked type of the result (`bool`, `string`, `list<string>`, `dyn`...). */
  readonly outputType: string;
  /**
   * The names the expression reads as identifiers, macro expansions included: the variables it uses (and the
   * iteration variables of its comprehensions). Evaluation converts only these (activation in evaluate.ts).
   */
  readonly variables: ReadonlySet<string>;
  /**
   * The fields selected from each variable that the expression reads only through field selections (`object.data`,
   * `has(object.data)`): evaluation converts just those fields of it. A variable read any other way (whole, indexed,
   * passed to a function) is not here.
   */
  readonly fieldsRead: ReadonlyMap<string, ReadonlySet<string>>;
  /** @internal the checked tree and its evaluation hooks. */
  readonly tree: Instrumented;
  /** @internal */
  readonly evaluateTree: (activation: Record<string, unknown>) => unknown;
}

/** A compile error, with its position (1-based line and column) when known. */
export interface CompileError {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

// Member functions of cel-js that cel-go 1.27's environment does not declare.
const undeclaredMembers: ReadonlySet<string> = new Set(['json', 'hex', 'base64', 'string', 'at', 'hasValue', 'value', 'or', 'orValue']);
const internalName = new RegExp(`${internalPrefix}(\\w+)`, 'g');

function position(input: string, offset: number): { line: number; column: number; text: string } {
  const before = input.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = input.indexOf('\n', offset);
  return { line, column: offset - lineStart + 1, text: input.slice(lineStart, lineEnd < 0 ? input.length : lineEnd) };
}

/** A compile error worded as cel-go words them. */
function compileError(expression: string, summary: string, offset: number | undefined, raw = false): CompileError {
  const message = raw ? summary : summary.replace(internalName, '$1');
  if (offset === undefined || offset < 0 || offset > expression.length) return { message: `ERROR: <input>: ${message}` };
  const p = position(expression, offset);
  return {
    message: `ERROR: <input>:${p.line}:${p.column}: ${message}\n | ${p.text}\n | ${'.'.repeat(p.column - 1)}^`,
    line: p.line,
    column: p.column,
  };
}

function errorOffset(e: unknown): number | undefined {
  const err = e as { range?: { start?: number }; node?: { pos?: number } };
  return err.node?.pos ?? err.range?.start;
}

/** The error's message, in cel-go's words where cel-js words a check error differently. */
function summaryOf(e: unknown): string {
  const err = e as { summary?: string; message?: string; code?: string };
  const summary = err.summary ?? err.message ?? String(e);
  const m = /^(?:No such key|Unknown variable): (.*)$/.exec(summary);
  if (err.code === 'no_such_key' && m) return `undefined field '${m[1]}'`;
  if (err.code === 'unknown_variable' && m) return `undeclared reference to '${m[1]}'`;
  return summary;
}

/** Rejects what 1.27 does not declare and points replaced functions at the libraries' versions. */
function prepare(root: AstNode): { node: AstNode; message: string } | undefined {
  for (const node of allNodes(root)) {
    if (node.op === '.?' || node.op === '[?]') return { node, message: 'unsupported syntax: optional field selection' };
    const name = functionName(node);
    if (name === undefined) continue;
    if (name.startsWith(internalPrefix)) return { node, message: `undeclared reference to '${name}'` };
    if (node.op === 'rcall') {
      const receiver = node.args[1] as AstNode;
      const namespaced = receiver.op === 'id' && (receiver.args === 'cel' || receiver.args === 'optional');
      if (namespaced || undeclaredMembers.has(name)) {
        return { node, message: `undeclared reference to '${namespaced ? `${receiver.args}.` : ''}${name}'` };
      }
      if (replacedMemberFunctions.has(name) && node.meta.macro === undefined && node.meta.alternate === undefined) {
        node.args[0] = `${internalPrefix}${name}`;
      }
    }
    // Constant patterns are compiled now, as cel-go's regex optimization does when the program is planned.
    if (name === `${internalPrefix}matches` || name === 'matches' || name === 'find' || name === 'findAll') {
      const args = children(node);
      const pattern = args[1];
      if (pattern?.op === 'value' && typeof pattern.args === 'string') {
        const re = compileRegex(pattern.args);
        if (re instanceof Error) return { node: pattern, message: re.message };
      }
    }
  }
  return undefined;
}

/** The type name as cel-go prints it. */
export function typeName(t: EngineType | undefined): string {
  if (t === undefined) return 'dyn';
  return t.name.replace(/google\.protobuf\.Timestamp/g, 'timestamp').replace(/google\.protobuf\.Duration/g, 'duration');
}

/** {@link Program.fieldsRead} of the tree under `root`. */
function fieldsReadOf(root: AstNode): Map<string, Set<string>> {
  const nodes = allNodes(root);
  const selectedBy = new Map<AstNode, AstNode>();
  for (const n of nodes) if (n.op === '.' || n.op === '.?') selectedBy.set(n.args[0] as AstNode, n);
  const fields = new Map<string, Set<string>>();
  const whole = new Set<string>();
  for (const n of nodes) {
    if (n.op !== 'id' || typeof n.args !== 'string') continue;
    const select = selectedBy.get(n);
    if (select === undefined || typeof select.args[1] !== 'string') whole.add(n.args);
    else fields.set(n.args, (fields.get(n.args) ?? new Set()).add(select.args[1]));
  }
  for (const name of whole) fields.delete(name);
  return fields;
}

/**
 * Compiles `expression` in `environment`: parses it, type-checks it against the declared variables and libraries,
 * and prepares it for evaluation. Results (errors too) are cached per environment.
 */
export function compile(expression: string, environment: CelEnvironment): Result<Program, CompileError> {
  const cached = environment.programs.get(expression) as Result<Program, CompileError> | undefined;
  if (cached !== undefined) return cached;
  const result = compileUncached(expression, environment);
  if (environment.programs.size >= 10_000) environment.programs.delete(environment.programs.keys().next().value!);
  environment.programs.set(expression, result);
  return result;
}

function compileUncached(expression: string, environment: CelEnvironment): Result<Program, CompileError> {
  let parsed: ReturnType<CelEnvironment['engine']['parse']>;
  try {
    parsed = environment.engine.parse(expression);
  } catch (e) {
    return fail(compileError(expression, `Syntax error: ${summaryOf(e)}`, errorOffset(e)));
  }
  const root = parsed.ast as unknown as AstNode;
  const rejected = prepare(root);
  if (rejected !== undefined) return fail(compileError(expression, rejected.message, rejected.node.pos, true));
  let checked: ReturnType<typeof parsed.check>;
  try {
    checked = parsed.check();
  } catch (e) {
    return fail(compileError(expression, summaryOf(e), errorOffset(e)));
  }
  if (!checked.valid) return fail(compileError(expression, summaryOf(checked.error), errorOffset(checked.error)));
  const tree = instrument(root);
  return ok({
    expression,
    environment,
    outputType: typeName(root.checkedType),
    variables: new Set(allNodes(root).flatMap((n) => (n.op === 'id' && typeof n.args === 'string' ? [n.args] : []))),
    fieldsRead: fieldsReadOf(root),
    tree,
    evaluateTree: (activation) => parsed(activation),
  });
}
