// The control cluster's audit log (stack/kube.ts `auditUserGroups`), read as the requests one
// user made: which verb on which resource, and whether the API server allowed it. With an RBAC
// role's rules beside it, it shows what the role was used for and what it was not.
import { readFile } from 'node:fs/promises';

/** One request as the audit log records it (audit.k8s.io/v1 Event, Metadata level). */
interface AuditedRequest {
  verb: string;
  /** '' for the core group. */
  group: string;
  /** With its subresource, as RBAC names it: `vpcs/status`, `secrets`. */
  resource: string;
  namespace?: string;
  code: number;
  /** Set when the request impersonated someone (RBAC verb `impersonate` on that user's kind). */
  impersonated?: string;
}

interface AuditEvent {
  stage: string;
  verb: string;
  user: { username: string };
  impersonatedUser?: { username: string };
  objectRef?: { resource?: string; subresource?: string; apiGroup?: string; namespace?: string };
  responseStatus?: { code?: number };
}

/** The requests `user` made, completed ones only, in the order the API server logged them. */
export async function auditedRequests(logFile: string, user: string): Promise<AuditedRequest[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  const requests: AuditedRequest[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const event = JSON.parse(line) as AuditEvent;
    // A watch logs ResponseStarted when it opens and ResponseComplete when it ends; either says it was allowed.
    if (event.user.username !== user || !event.objectRef?.resource) continue;
    if (event.stage !== 'ResponseComplete' && !(event.stage === 'ResponseStarted' && event.verb === 'watch')) continue;
    const { resource, subresource, apiGroup, namespace } = event.objectRef;
    requests.push({
      verb: event.verb,
      group: apiGroup ?? '',
      resource: subresource ? `${resource}/${subresource}` : resource,
      namespace,
      code: event.responseStatus?.code ?? 0,
      impersonated: event.impersonatedUser?.username,
    });
  }
  return requests;
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** `group resource verb` for every combination a role's rules grant, sorted. */
export function grantedPermissions(rules: readonly PolicyRule[]): string[] {
  const granted = new Set<string>();
  for (const rule of rules)
    for (const group of rule.apiGroups ?? [''])
      for (const resource of rule.resources ?? []) for (const verb of rule.verbs) granted.add(permission(group, resource, verb));
  return [...granted].sort();
}

/**
 * `group resource verb` for every request the API server authorized (any answer but 401 and 403:
 * a 404 or 409 comes after authorization). A request made while impersonating is authorized as
 * the impersonated user, with that user's rights; of the caller's it used only `impersonate`,
 * on the impersonated user's kind (`serviceaccounts` or `users`).
 */
export function usedPermissions(requests: readonly AuditedRequest[]): string[] {
  const used = new Set<string>();
  for (const request of requests) {
    if (request.code === 401 || request.code === 403) continue;
    if (request.impersonated)
      used.add(permission('', request.impersonated.startsWith('system:serviceaccount:') ? 'serviceaccounts' : 'users', 'impersonate'));
    else used.add(permission(request.group, request.resource, request.verb));
    // A server-side apply is a patch, and one that creates (201) was authorized for `create` too.
    if (!request.impersonated && request.verb === 'patch' && request.code === 201)
      used.add(permission(request.group, request.resource, 'create'));
  }
  return [...used].sort();
}

/** Requests the API server refused for want of a permission. */
export const forbidden = (requests: readonly AuditedRequest[]) => requests.filter((request) => request.code === 403);

const permission = (group: string, resource: string, verb: string) => `${group || 'core'} ${resource} ${verb}`;
