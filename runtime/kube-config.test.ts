import { describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { impersonating } from './kube-config';

describe('impersonating', () => {
  it('keeps the cluster and credentials and adds the user to impersonate, leaving the original alone', () => {
    const original = new KubeConfig();
    original.loadFromOptions({
      clusters: [{ name: 'control', server: 'https://127.0.0.1:6443', skipTLSVerify: false }],
      users: [{ name: 'worker', token: 'worker-token' }],
      contexts: [{ name: 'ctx', cluster: 'control', user: 'worker' }],
      currentContext: 'ctx',
    });
    const as = impersonating(original, 'system:serviceaccount:team-a:provider-kubernetes');
    expect(as.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(as.getCurrentUser()).toMatchObject({
      token: 'worker-token',
      impersonateUser: 'system:serviceaccount:team-a:provider-kubernetes',
    });
    expect(original.getCurrentUser()?.impersonateUser).toBeUndefined();
  });
});
