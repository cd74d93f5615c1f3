import { describe, expect, it } from 'vitest';
import { connectionDetailsOf, type TargetRef } from './connection-details';
import type { DesiredObject } from '../remote/target';

const target: DesiredObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'apps' } };
const objects: Record<string, Record<string, unknown>> = {
  'v1/Service/apps/web': { spec: { clusterIP: '10.0.0.7', ports: [{ port: 80 }] } },
  'v1/Secret/apps/db': { data: { password: Buffer.from('hunter2').toString('base64') } },
};
const read = async (ref: TargetRef) => objects[`${ref.apiVersion}/${ref.kind}/${ref.namespace}/${ref.name}`];

describe('connectionDetailsOf', () => {
  it('publishes chosen fields: a Service’s clusterIP and a Secret’s key, decoded once', async () => {
    const details = await connectionDetailsOf(
      [
        { apiVersion: 'v1', kind: 'Service', name: 'web', namespace: 'apps', fieldPath: 'spec.clusterIP', toConnectionSecretKey: 'host' },
        { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: 'apps', fieldPath: 'data.password', toConnectionSecretKey: 'password' },
      ],
      target,
      read,
    );
    expect(details).toEqual({ host: '10.0.0.7', password: 'hunter2' });
  });

  it('reads the Object’s own target when the detail names no object, keyed by the last field', async () => {
    expect(await connectionDetailsOf([{ fieldPath: 'spec.clusterIP' }], target, read)).toEqual({ clusterIP: '10.0.0.7' });
    expect(await connectionDetailsOf([{ fieldPath: 'spec.ports[0]', toConnectionSecretKey: 'port' }], target, read)).toEqual({
      port: '{"port":80}',
    });
  });

  it('publishes nothing without details', async () => {
    expect(await connectionDetailsOf(undefined, target, read)).toBeUndefined();
    expect(await connectionDetailsOf([], target, read)).toBeUndefined();
  });

  it('waits (a retryable error) for an object or a field that is not there yet', async () => {
    await expect(connectionDetailsOf([{ fieldPath: 'status.loadBalancer.ingress' }], target, read)).rejects.toMatchObject({
      failureClass: 'Transient',
      message: 'connectionDetails: Service apps/web has no field status.loadBalancer.ingress yet',
    });
    await expect(
      connectionDetailsOf([{ apiVersion: 'v1', kind: 'Secret', name: 'nope', namespace: 'apps', fieldPath: 'data.x' }], target, read),
    ).rejects.toMatchObject({
      failureClass: 'Transient',
      message: 'connectionDetails: Secret apps/nope does not exist in the target cluster',
    });
  });

  it('rejects a detail that can never work, naming it', async () => {
    await expect(connectionDetailsOf([{ name: 'web' }], target, read)).rejects.toMatchObject({ failureClass: 'InvalidInput' });
    await expect(connectionDetailsOf([{ fieldPath: 'spec.ports[0]' }], target, read)).rejects.toMatchObject({
      failureClass: 'InvalidInput',
      message: 'connectionDetails: Service apps/web: toConnectionSecretKey is required when fieldPath ends in an index',
    });
    await expect(connectionDetailsOf([{ fieldPath: 'spec..x' }], target, read)).rejects.toMatchObject({ failureClass: 'InvalidInput' });
  });
});
