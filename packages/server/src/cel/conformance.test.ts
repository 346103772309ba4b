/**
 * The cel-spec conformance suite (as @bufbuild/cel-spec ships it) for every section whose features kube-apiserver
 * 1.27's environment has, run through compile and evaluate. Sections not run: protobuf messages, enums and wrappers
 * (Kubernetes declares no protobuf types), and extensions 1.27 does not enable (optionals, bindings, math, encoders,
 * block, two-variable comprehensions, namespaces). Listed skips must fail; a skip that passes fails the test.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { runConformanceTest } from './testdata/conformance-harness.js';
import { conformanceSkips } from './testdata/conformance-skips.js';

const claimed = new Set([
  'basic', 'comparisons', 'conversions', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'parse',
  'plumbing', 'string', 'string_ext', 'timestamps', 'type_deductions',
]);

function skipReason(path: readonly string[]): string | undefined {
  for (let i = path.length; i > 0; i--) {
    const reason = conformanceSkips.get(path.slice(0, i).join('/'));
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function suite(s: IncrementalTestSuite, path: readonly string[]): void {
  describe(s.name, () => {
    for (const child of s.suites) suite(child, [...path, child.name]);
    for (const t of s.tests) {
      const testPath = [...path, t.original.name];
      const reason = skipReason(testPath);
      it(t.original.name, () => {
        const failure = runConformanceTest(t.original);
        if (reason === undefined) assert.equal(failure, undefined, `${t.original.expr}: ${failure}`);
        else assert.notEqual(failure, undefined, `listed as skipped (${reason}) but passes: remove it from conformance-skips.ts`);
      });
    }
  });
}

describe('cel-spec conformance', () => {
  for (const s of getConformanceSuite().suites) if (claimed.has(s.name)) suite(s, [s.name]);
});
