// provider-kubernetes' connectionDetails[]: chosen fields of objects in the target cluster (a
// Secret's key, a Service's clusterIP), published to the Object's writeConnectionSecretToRef.
// The engine writes the Secret and keeps the values out of status, history and logs; this
// module only finds them. A Secret's data is base64 in the API and is decoded, as upstream
// does, so the connection Secret holds the value and not its encoding twice.
import type { KubernetesObject } from '@kubernetes/client-node';
import { ClassifiedError } from '#core/errors';
import type { ConnectionDetails } from '#core/external-client';
import { FieldPathError, getValue, parseFieldPath, type Segment } from '#core/references/fieldpath';
import { isSecret } from './sanitize';
import { describeTarget, type DesiredObject } from '../remote/target';

export interface ConnectionDetailSpec {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  fieldPath?: string;
  toConnectionSecretKey?: string;
}

export interface TargetRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Reads an object in the target cluster; undefined when it does not exist. */
type ReadTarget = (ref: TargetRef) => Promise<KubernetesObject | undefined>;

/**
 * The object a detail reads. Upstream requires a full reference; we accept one without
 * apiVersion, kind or name as meaning the Object's own target, the common case.
 */
export function detailSource(detail: ConnectionDetailSpec, target: DesiredObject): TargetRef {
  const own = !detail.apiVersion && !detail.kind && !detail.name;
  return {
    apiVersion: detail.apiVersion || target.apiVersion,
    kind: detail.kind || target.kind,
    name: detail.name || target.metadata.name,
    namespace: detail.namespace ?? (own ? (target.metadata.namespace ?? '') : ''),
  };
}

export async function connectionDetailsOf(
  details: readonly ConnectionDetailSpec[] | undefined,
  target: DesiredObject,
  read: ReadTarget,
): Promise<ConnectionDetails | undefined> {
  if (!details || details.length === 0) return undefined;
  const published: ConnectionDetails = {};
  for (const detail of details) {
    const source = detailSource(detail, target);
    const what = `connectionDetails: ${describeTarget(source)}`;
    if (!detail.fieldPath) throw new ClassifiedError('InvalidInput', `${what}: fieldPath is required`);
    const path = parsedPath(detail.fieldPath, what);
    const last = path.at(-1);
    const key = detail.toConnectionSecretKey || (last?.type === 'field' ? last.name : undefined);
    if (!key) throw new ClassifiedError('InvalidInput', `${what}: toConnectionSecretKey is required when fieldPath ends in an index`);
    const object = await read(source);
    // Transient: the object or its field (a Service's clusterIP) may well appear later.
    if (!object) throw new ClassifiedError('Transient', `${what} does not exist in the target cluster`);
    const value = getValue(object, path);
    if (value === undefined || value === null) throw new ClassifiedError('Transient', `${what} has no field ${detail.fieldPath} yet`);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    published[key] = isSecret(source) && /^data[.[]/.test(detail.fieldPath) ? Buffer.from(text, 'base64').toString('utf8') : text;
  }
  return published;
}

function parsedPath(fieldPath: string, what: string): Segment[] {
  try {
    return parseFieldPath(fieldPath);
  } catch (error) {
    if (error instanceof FieldPathError) throw new ClassifiedError('InvalidInput', `${what}: ${error.message}`);
    throw error;
  }
}
