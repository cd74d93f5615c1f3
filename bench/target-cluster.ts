// What the scenarios with a target cluster share (object, application): one more real cluster,
// started on free ports for the length of a measurement, and its processes named apart from
// the control cluster's (both have an etcd and a kube-apiserver).
import { startRemoteCluster, type RemoteCluster } from '#stack/remote-clusters';
import { distinctFreePorts } from './peers/support';

/** A target cluster and the directory its processes write their pid files under. */
export type TargetCluster = RemoteCluster & { dir: string };

/** The target cluster for the length of `use`; stopped however `use` ends. */
export async function withTargetCluster<T>(dir: string, name: string, use: (cluster: TargetCluster) => Promise<T>): Promise<T> {
  const cluster = await startRemoteCluster({ name, dir, ...(await clusterPorts()) }, false);
  try {
    return await use({ ...cluster, dir });
  } finally {
    await cluster.stop();
  }
}

/** Three free ports for one more cluster: its kube-apiserver and its etcd's client and peer ports. */
export async function clusterPorts(): Promise<{ apiserverPort: number; etcdClientPort: number; etcdPeerPort: number }> {
  const [apiserverPort, etcdClientPort, etcdPeerPort] = await distinctFreePorts(3);
  return { apiserverPort: apiserverPort!, etcdClientPort: etcdClientPort!, etcdPeerPort: etcdPeerPort! };
}

/** Process names of a second cluster, kept apart from the control cluster's. */
export const prefixed = (prefix: string, pids: Record<string, number>) =>
  Object.fromEntries(Object.entries(pids).map(([name, pid]) => [`${prefix} ${name}`, pid]));
