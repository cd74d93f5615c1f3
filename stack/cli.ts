// npm run up | down | status
import { relative } from 'node:path';
import { devStackLayout, devStackStatus, downDevStack, upDevStack, type DevStackEndpoints } from './dev-stack';
import { repoRoot } from './paths';

const USAGE = 'usage: tsx stack/cli.ts up|down|status';

async function main(command: string | undefined): Promise<void> {
  switch (command) {
    case 'up':
      return up();
    case 'down':
      return down();
    case 'status':
      return status();
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

async function up(): Promise<void> {
  const startedAt = Date.now();
  const endpoints = await upDevStack();
  console.log(`\nChronoplane is up (${seconds(startedAt)}).\n`);
  printNextSteps(endpoints);
}

function printNextSteps(endpoints: DevStackEndpoints): void {
  const layout = devStackLayout();
  const example = relative(process.cwd(), `${repoRoot}/examples/vpc.yaml`);
  console.log(`  export KUBECONFIG=${endpoints.kubeconfigPath}`);
  console.log(
    `  Temporal UI:   ${endpoints.temporalUiUrl}   (frontend ${endpoints.temporalAddress}, namespace ${endpoints.temporalNamespace})`,
  );
  console.log(`  Codec server:  ${endpoints.codecEndpoint}   (decodes payloads for the UI; key in ${endpoints.payloadKeyFile})`);
  console.log(`  EC2 endpoint:  ${endpoints.ec2Endpoint}   (moto; any region, any credentials)`);
  for (const remote of endpoints.remoteClusters) {
    const kubernetesCluster = remote.kubernetesCluster ? `; KubernetesCluster ${remote.kubernetesCluster}` : '';
    console.log(
      `  Remote cluster ${remote.name}: ${remote.server}   (kubeconfig ${remote.kubeconfigPath}; Secret ${remote.secret}${kubernetesCluster})`,
    );
  }
  console.log(`  Logs:          ${layout.root}/*/logs/*.log`);
  console.log('\nTry:');
  console.log(`  kubectl apply -f ${example}`);
  console.log('  kubectl get vpc -w');
  const remote = endpoints.remoteClusters[0];
  if (remote) {
    const namespaceExample = relative(process.cwd(), `${repoRoot}/examples/kubernetes/namespace.yaml`);
    console.log(`  kubectl apply -f ${namespaceExample}   # an Object: a Namespace in ${remote.name}`);
    console.log(`  kubectl --kubeconfig ${remote.kubeconfigPath} get namespace sample-namespace`);
    const workloadExample = relative(process.cwd(), `${repoRoot}/examples/workload`);
    console.log(`  kubectl apply -f ${workloadExample}/   # a KubernetesApplication, scheduled to ${remote.name}`);
    console.log('  kubectl -n complex get kubernetesapplication,kubernetesapplicationresource');
  }
  console.log('  npm run status');
  console.log('  npm run down      # stops everything; state is kept for the next up');
}

async function down(): Promise<void> {
  const startedAt = Date.now();
  await downDevStack();
  console.log(`chronoplane: stopped (${seconds(startedAt)}); state kept in ${devStackLayout().root}`);
}

async function status(): Promise<void> {
  const statuses = await devStackStatus();
  const nameWidth = Math.max(...statuses.map((status) => status.name.length));
  for (const status of statuses) {
    const state = status.running ? 'running' : 'stopped';
    console.log(`${status.name.padEnd(nameWidth)}  ${state.padEnd(7)}  ${status.url ?? ''}`.trimEnd());
  }
  console.log(`\nlogs: ${devStackLayout().root}/*/logs/*.log`);
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(`chronoplane: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
