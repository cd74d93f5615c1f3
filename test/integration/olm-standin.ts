// A small operator standing in for OLM in the remote cluster, for seed 002's install and
// uninstall scenario: a Subscription gains status.currentCSV, and then a ClusterServiceVersion
// of that name appears, created by the "operator", not by any Object. It also records when each
// watched object disappears, so a test can check the uninstall order. A real controller on a
// real API server: informers, a status subresource, server-side creates.
import {
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  makeInformer,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { runKubectl } from './kubectl';

const GROUP = 'operators.coreos.com';
const VERSION = 'v1alpha1';

const crd = (group: string, kind: string, plural: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});

/** Subscription and ClusterServiceVersion as OLM serves them, and the Kong kind its operator would. */
const OLM_STANDIN_CRDS = [
  crd(GROUP, 'Subscription', 'subscriptions'),
  crd(GROUP, 'ClusterServiceVersion', 'clusterserviceversions'),
  crd('charts.konghq.com', 'Kong', 'kongs'),
];

interface Deletion {
  kind: string;
  name: string;
  at: number;
}

export class OlmStandIn {
  readonly deletions: Deletion[] = [];
  private readonly stops: (() => Promise<void>)[] = [];

  private constructor(private readonly custom: CustomObjectsApi) {}

  static async start(kubeconfigPath: string): Promise<OlmStandIn> {
    const list = { apiVersion: 'v1', kind: 'List', items: OLM_STANDIN_CRDS };
    await runKubectl(['apply', '--server-side', '-f', '-'], JSON.stringify(list), kubeconfigPath);
    await runKubectl(
      ['wait', '--for=condition=Established', '--timeout=60s', ...OLM_STANDIN_CRDS.map((c) => `crd/${c.metadata.name}`)],
      undefined,
      kubeconfigPath,
    );
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    const operator = new OlmStandIn(kubeConfig.makeApiClient(CustomObjectsApi));
    await operator.watch(kubeConfig, GROUP, 'subscriptions', (sub) => operator.subscribed(sub));
    await operator.watch(kubeConfig, GROUP, 'clusterserviceversions');
    await operator.watch(kubeConfig, 'charts.konghq.com', 'kongs');
    return operator;
  }

  async stop(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }

  /** Whether `first` was gone before `then` went. */
  deletedBefore(first: string, then: string): boolean {
    const at = (kind: string) => this.deletions.find((d) => d.kind === kind)?.at;
    const [a, b] = [at(first), at(then)];
    return a !== undefined && b !== undefined && a <= b;
  }

  private async watch(kubeConfig: KubeConfig, group: string, plural: string, onChange?: (obj: KubernetesObject) => Promise<void>) {
    const path = `/apis/${group}/${VERSION}/${plural}`;
    const informer = makeInformer(
      kubeConfig,
      path,
      () => this.custom.listClusterCustomObject({ group, version: VERSION, plural }) as never,
    );
    if (onChange) {
      const handle = (obj: KubernetesObject) => void onChange(obj).catch(() => undefined);
      informer.on('add', handle);
      informer.on('update', handle);
    }
    informer.on('delete', (obj) => this.deletions.push({ kind: obj.kind ?? plural, name: obj.metadata?.name ?? '', at: Date.now() }));
    informer.on('error', () => setTimeout(() => void informer.start(), 1_000));
    await informer.start();
    this.stops.push(() => informer.stop());
  }

  /** What OLM does for a new Subscription: resolve a CSV, record it, install it. */
  private async subscribed(sub: KubernetesObject & { spec?: { name?: string }; status?: { currentCSV?: string } }): Promise<void> {
    const { name, namespace } = sub.metadata!;
    if (sub.status?.currentCSV || sub.metadata?.deletionTimestamp) return;
    const csv = `${sub.spec?.name ?? name}.v1.0.0`;
    await this.custom.patchNamespacedCustomObjectStatus(
      {
        group: GROUP,
        version: VERSION,
        namespace: namespace!,
        plural: 'subscriptions',
        name: name!,
        body: [{ op: 'add', path: '/status', value: { currentCSV: csv } }],
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    await this.custom
      .createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: namespace!,
        plural: 'clusterserviceversions',
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'ClusterServiceVersion',
          metadata: { name: csv, namespace },
          spec: { displayName: csv },
        },
      })
      .catch((error: { code?: number }) => {
        if (error.code !== 409) throw error;
      });
  }
}
