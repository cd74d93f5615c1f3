// A KubeConfig whose API clients reuse TLS connections. @kubernetes/client-node 1.x builds a
// new https.Agent for every request (kubernetes-client/javascript#2893, fixed only in 2.x,
// which needs Node 22), so every call paid a full TLS handshake: in a 100-VPC burst that was
// about a third of the worker's CPU time. This keeps one keep-alive agent per TLS identity.
import { createHash } from 'node:crypto';
import { Agent, type AgentOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

type RequestContext = Parameters<KubeConfig['applySecurityAuthentication']>[0];

export class KeepAliveKubeConfig extends KubeConfig {
  private readonly agents = new Map<string, Agent>();

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const perRequest = context.getAgent();
    // Proxies and plain HTTP keep the library's own agent.
    if (!(perRequest instanceof Agent) || perRequest.constructor !== Agent) return;
    context.setAgent(this.agentFor(perRequest.options));
  }

  private agentFor(options: AgentOptions): Agent {
    // The key covers what identifies the TLS session: server, CA and client certificate. A
    // rotated certificate file gives a new key, hence a new agent.
    const identity = createHash('sha256');
    for (const part of [
      this.getCurrentCluster()?.server,
      options.ca,
      options.cert,
      options.key,
      options.pfx,
      options.servername,
      options.rejectUnauthorized,
    ]) {
      identity.update(String(part ?? '')).update('\0');
    }
    const key = identity.digest('hex');
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({ ...options, keepAlive: true, maxSockets: 32 });
      this.agents.set(key, agent);
    }
    return agent;
  }
}

/** The kubeconfig from KUBECONFIG, ~/.kube/config or the in-cluster service account. */
export function loadKubeConfig(): KubeConfig {
  const kc = new KeepAliveKubeConfig();
  kc.loadFromDefault();
  return kc;
}

/**
 * `kubeConfig` acting as `user` through impersonation: every request carries
 * `Impersonate-User`, so the API server authorizes it with that user's rights, not with
 * `kubeConfig`'s own. `kubeConfig`'s identity needs the `impersonate` verb for that user.
 */
export function impersonating(kubeConfig: KubeConfig, user: string): KubeConfig {
  const current = kubeConfig.getCurrentUser();
  const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
  if (!current || !context) throw new Error('the kubeconfig has no current context and user to impersonate from');
  const impersonated = new KeepAliveKubeConfig();
  impersonated.loadFromOptions({
    clusters: kubeConfig.getClusters(),
    users: [{ ...current, impersonateUser: user }],
    contexts: [{ ...context, user: current.name }],
    currentContext: context.name,
  });
  return impersonated;
}
