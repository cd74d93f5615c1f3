import { describe, expect, it } from 'vitest';
import { observedManifest } from './sanitize';

describe('observedManifest', () => {
  it('redacts a Secret’s data and kubectl’s copy of it, as provider-kubernetes’ --sanitize-secrets does', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'db',
        namespace: 'default',
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}', team: 'a' },
        managedFields: [{ manager: 'kubectl' }],
      },
      data: { password: 'aHVudGVyMg==' },
      type: 'Opaque',
    };
    const observed = observedManifest(secret);
    expect(observed).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'default', annotations: { team: 'a' } },
      data: { redacted: null },
      type: 'Opaque',
    });
    expect(JSON.stringify(observed)).not.toContain('aHVudGVyMg');
    expect(secret.data.password).toBe('aHVudGVyMg=='); // the input is left as it was
  });

  it('keeps everything else of other kinds, status included, minus managedFields', () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', resourceVersion: '7', finalizers: ['x'], managedFields: [{ manager: 'm' }] },
      data: { key: 'value' },
    };
    expect(observedManifest(configMap)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', resourceVersion: '7', finalizers: ['x'] },
      data: { key: 'value' },
    });
  });
});
