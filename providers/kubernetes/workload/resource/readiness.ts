// When a submitted object is ready for what is submitted after it. Most objects are usable as
// soon as the remote API server has accepted them. A CustomResourceDefinition is not: until the
// server reports it Established it does not serve its kind, and a custom resource of that kind
// sent in the next wave would be refused ("converges after a few failed loops", which seed 003
// describes and issue 9 forbids). So a CRD counts as Submitted only once it is Established;
// the server's status update reaches us through the target's watch, which wakes the resource.
// Pure.
import type { KubernetesObject } from '@kubernetes/client-node';
import { groupOf } from '#runtime/references/dependencies';
import type { Readiness } from '#core/external-client';

interface Condition {
  type?: unknown;
  status?: unknown;
  message?: unknown;
}

export function submittedReadiness(live: KubernetesObject): { readiness: Readiness; readinessMessage?: string } {
  const isCrd = live.kind === 'CustomResourceDefinition' && groupOf(live.apiVersion ?? '') === 'apiextensions.k8s.io';
  if (!isCrd) return { readiness: 'Available' };
  const conditions = ((live as { status?: { conditions?: Condition[] } }).status?.conditions ?? []) as Condition[];
  if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return { readiness: 'Available' };
  const refused = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
  return {
    readiness: 'Creating',
    readinessMessage: refused
      ? `the CustomResourceDefinition's names are not accepted: ${String(refused.message ?? '')}`
      : 'waiting for the CustomResourceDefinition to be Established',
  };
}
