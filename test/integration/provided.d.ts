// What global-setup hands to every integration test file through vitest's provide/inject.
declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfigPath: string;
    temporalAddress: string;
    ec2Endpoint: string;
    workflowBundle: string;
  }
}
export {};
