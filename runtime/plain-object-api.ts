// KubernetesObjectApi that answers objects as the API server sent them. The stock one turns
// core kinds into model classes (timestamps as Dates, some fields renamed), while watch events
// and unknown kinds stay plain JSON; status mirrors, CEL queries and the comparison of a dry
// run with a watched copy all need one representation, and the wire's is the one that is true
// for every kind.
import { KubeConfig, KubernetesObjectApi, type KubernetesObject, type ResponseContext } from '@kubernetes/client-node';

export class PlainObjectApi extends KubernetesObjectApi {
  static forConfig<T extends PlainObjectApi>(this: new (...args: never[]) => T, kubeConfig: KubeConfig): T {
    return kubeConfig.makeApiClient(this as never) as T;
  }

  protected override async processResponse<T extends KubernetesObject>(response: ResponseContext, type?: string): Promise<T> {
    // A named type (V1Status of a delete, discovery's V1APIResourceList) is not an object we mirror.
    if (type !== undefined || response.httpStatusCode < 200 || response.httpStatusCode > 299) {
      return super.processResponse<T>(response, type);
    }
    return JSON.parse(await response.body.text()) as T;
  }
}
