// Server-side apply to a target cluster as kubectl does it: the manifest sent as written, with
// strict field validation (dry runs included). A field the target's schema does not have (a
// typo in a manifest, a field of a newer version of the kind) then fails the apply with the API
// server's own message naming it, instead of vanishing while the resource turns Ready.
// KubernetesObjectApi.patch cannot do either: it has no parameter for field validation, and it
// passes a built-in kind (a ConfigMap) through the client's model class first, which drops any
// field the class does not know before the server ever sees it.
import { HttpMethod, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { DiscoveringObjectApi } from '../target-watches';

interface ApplyOptions {
  fieldManager: string;
  /** Take the fields it names from other managers (a conflict otherwise). */
  force: boolean;
  dryRun?: 'All';
}

export class StrictApplyObjectApi extends DiscoveringObjectApi {
  /** Applies `spec` as written; answers the object as the server made it (or would, in a dry run). */
  async serverSideApply(spec: KubernetesObject, options: ApplyOptions): Promise<KubernetesObject> {
    const request = this.configuration.baseServer.makeRequestContext(await this.specUriPath(spec, 'patch'), HttpMethod.PATCH);
    request.setHeaderParam('Accept', 'application/json');
    request.setHeaderParam('Content-Type', PatchStrategy.ServerSideApply);
    request.setQueryParam('fieldManager', options.fieldManager);
    request.setQueryParam('force', String(options.force));
    request.setQueryParam('fieldValidation', 'Strict');
    if (options.dryRun) request.setQueryParam('dryRun', options.dryRun);
    request.setBody(JSON.stringify(spec));
    return this.requestPromise(request);
  }
}
