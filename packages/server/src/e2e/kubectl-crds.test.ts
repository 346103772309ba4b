/**
 * kubectl driving custom resources in the k8s flavour: `kubectl apply` of a CRD and `kubectl wait
 * --for=condition=Established`, `kubectl create -f` of a custom object, `kubectl get <plural>` with the printer
 * columns, `kubectl get all` through the `all` category, `kubectl explain` from the OpenAPI, `kubectl scale`, and
 * `kubectl delete crd`. Skipped without kubectl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlsOrSkip, runKubectl, succeeded } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { startServerProcess, type ServerProcess } from './server-process.js';

const kubectls = kubectlsOrSkip('kubectl with custom resources');


const crdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The desired schedule of a CronTab.
            properties:
              cronSpec:
                type: string
                description: A cron expression.
              replicas:
                type: integer
                default: 1
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const objectYaml = (name: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "*/5 * * * *"
`;

if (kubectls.length > 0) {
  describe('kubectl with custom resources (k8s flavour)', () => {
    let server: ServerProcess;
    const home = tempDir({ after }, 'kubectl-crds-');
    before(async () => {
      server = await startServerProcess({ flavour: 'k8s', storage: 'memory' });
      writeFileSync(join(home, 'crd.yaml'), crdYaml);
    });
    after(async () => {
      await server?.stop();
    });

    for (const bin of kubectls) {
      test(`${bin.label}: apply, wait, create, get, explain, scale, delete`, async () => {
        const run = (args: string[]) => runKubectl(bin, server.kubeconfigPath, join(home, bin.label), args);
        const name = bin.label.replace(/\W/g, '-');
        succeeded(await run(['apply', '-f', join(home, 'crd.yaml')]), 'apply crd');
        succeeded(await run(['wait', '--for=condition=Established', '--timeout=20s', 'crd/crontabs.stable.example.com']), 'wait');
        writeFileSync(join(home, `${name}.yaml`), objectYaml(name));
        succeeded(await run(['create', '-f', join(home, `${name}.yaml`)]), 'create');
        const table = succeeded(await run(['get', 'crontabs']), 'get crontabs');
        assert.match(table.split('\n')[0]!, /^NAME\s+SPEC\s+REPLICAS\s*$/);
        assert.match(table, new RegExp(`${name}\\s+\\*/5 \\* \\* \\* \\*\\s+1`));
        assert.match(succeeded(await run(['get', 'ct', name, '-o', 'jsonpath={.spec.replicas}']), 'get by short name'), /^1$/);
        assert.match(succeeded(await run(['get', 'all']), 'get all'), new RegExp(`crontab\\.stable\\.example\\.com/${name}`));
        const explained = succeeded(await run(['explain', 'crontabs.spec']), 'explain');
        assert.match(explained, /KIND:\s+CronTab/);
        assert.match(explained, /cronSpec/);
        assert.match(explained, /A cron expression\./);
        succeeded(await run(['scale', `crontab/${name}`, '--replicas=3']), 'scale');
        assert.match(succeeded(await run(['get', 'crontab', name, '-o', 'jsonpath={.spec.replicas}']), 'get scaled'), /^3$/);
        succeeded(await run(['delete', 'crontab', name]), 'delete object');
      });
    }

    test('kubectl get apiservices lists the built-in and custom group-versions', async () => {
      const bin = kubectls[0]!;
      const out = succeeded(await runKubectl(bin, server.kubeconfigPath, join(home, 'apiservices'), ['get', 'apiservices']), 'get apiservices');
      assert.match(out.split('\n')[0]!, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE\s*$/);
      assert.match(out, /^v1\.apps\s+Local\s+True\s+/m);
      assert.match(out, /^v1\.apiextensions\.k8s\.io\s+Local\s+True\s+/m);
    });

    test('kubectl delete crd removes the resource', async () => {
      const bin = kubectls[0]!;
      const run = (args: string[]) => runKubectl(bin, server.kubeconfigPath, join(home, 'last'), args);
      succeeded(await run(['delete', 'crd', 'crontabs.stable.example.com', '--timeout=30s']), 'delete crd');
      // A fresh discovery cache: the delete's own run cached the resource.
      const after = await runKubectl(bin, server.kubeconfigPath, join(home, 'fresh'), ['get', 'crontabs']);
      assert.notEqual(after.code, 0);
      assert.match(after.stderr, /the server doesn't have a resource type "crontabs"/);
    });
  });
}
