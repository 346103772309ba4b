/**
 * `/version` (k8s.io/apimachinery's version.Info): the Kubernetes release whose API this server serves, with this
 * server's own build in the semver build metadata so clients that parse `gitVersion` see 1.27.
 */
import type { Names } from '@svc-apiserver/api';

/** The Kubernetes release mirrored. */
export const kubernetesVersion = { major: '1', minor: '27', patch: '16' } as const;

/** This server's version. */
export const serverVersion = '0.1.0';

/** The version.Info document. */
export function versionInfo(names: Names): Record<string, string> {
  return {
    major: kubernetesVersion.major,
    minor: kubernetesVersion.minor,
    gitVersion: `v${kubernetesVersion.major}.${kubernetesVersion.minor}.${kubernetesVersion.patch}+${names.name('serverName')}.${serverVersion}`,
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
