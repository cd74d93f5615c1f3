// Builds helm from its Go module and caches it beside the other Go tools, so the chart's tests
// run on a machine that has Go but no helm, and always with the same helm.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { binDir, cacheDir } from './paths';
import { progress } from './progress';
import { commandExists, runCommand } from './run-command';
import { isExecutable, readStamp } from './stamps';

const HELM_VERSION = 'v3.22.0';
const HELM_MODULE = 'helm.sh/helm/v3';

/** Returns the path of the cached helm binary, building it first if it is missing or stale. */
export async function ensureHelm(): Promise<string> {
  const binary = join(binDir(), 'helm');
  const stamp = join(binDir(), 'helm.stamp');
  const wanted = `${HELM_MODULE}/cmd/helm@${HELM_VERSION} with release ldflags`;
  if ((await isExecutable(binary)) && (await readStamp(stamp)) === wanted) return binary;

  if (!(await commandExists('go'))) throw new Error('the Go toolchain is needed to build helm, but `go` is not on PATH');
  progress(`building helm ${HELM_VERSION} (first run only, ~3 min)…`);
  await mkdir(binDir(), { recursive: true });
  // A stale stamp must not survive a failed rebuild.
  await rm(stamp, { force: true });
  const logFile = join(cacheDir(), 'helm-build.log');
  progress(`  build log: ${logFile}`);
  await runCommand('go', ['install', '-trimpath', `-ldflags=${await releaseLdflags()}`, `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`], {
    env: { ...process.env, GOBIN: binDir() },
    logFile,
  });
  await writeFile(stamp, wanted);
  return binary;
}

/**
 * What helm's Makefile stamps into a release: its version, and the Kubernetes version that
 * `helm template` and `helm lint` assume (.Capabilities.KubeVersion, checked against a chart's
 * kubeVersion), which it derives from the client-go it is built with. A plain `go install`
 * leaves the defaults: version "v3.22" and Kubernetes v1.20.
 */
async function releaseLdflags(): Promise<string> {
  const { stdout } = await runCommand('go', ['mod', 'download', '-json', `${HELM_MODULE}@${HELM_VERSION}`]);
  const { Dir } = JSON.parse(stdout) as { Dir: string };
  const goMod = await readFile(join(Dir, 'go.mod'), 'utf8');
  const clientGo = /^\s*k8s\.io\/client-go v0\.(\d+)\.\d+/m.exec(goMod);
  if (!clientGo) throw new Error(`cannot find helm ${HELM_VERSION}'s k8s.io/client-go version in ${Dir}/go.mod`);
  const kubeMinor = clientGo[1]!;
  return [
    '-s -w',
    `-X ${HELM_MODULE}/internal/version.version=${HELM_VERSION}`,
    ...['pkg/lint/rules', 'pkg/chartutil'].flatMap((pkg) => [
      `-X ${HELM_MODULE}/${pkg}.k8sVersionMajor=1`,
      `-X ${HELM_MODULE}/${pkg}.k8sVersionMinor=${kubeMinor}`,
    ]),
  ].join(' ');
}
