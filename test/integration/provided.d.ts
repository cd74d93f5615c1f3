// What global-setup hands to every integration test file through vitest's provide/inject.
import type { TestRemoteCluster } from '#stack/test-stack';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfigPath: string;
    temporalAddress: string;
    ec2Endpoint: string;
    /** The control cluster's audit log: requests of the chart's ServiceAccount (stack/controller-identity.ts). */
    kubeAuditLog: string;
    workflowBundle: string;
    /** remote-1 and remote-2: targets for Objects, each registered as a kubeconfig Secret. */
    remoteClusters: TestRemoteCluster[];
  }
}
export {};
