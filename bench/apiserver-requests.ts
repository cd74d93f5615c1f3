// The requests a kube-apiserver answered, by verb and resource, from its own
// apiserver_request_total counter. Read before and after a phase, the difference is what the
// phase cost that server in requests: the controller's, plus the benchmark's own creates,
// deletes and watches, which are the same for every row.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Requests by "VERB resource[/subresource]" (LIST, WATCH, APPLY as the server counts them). */
export type RequestCounts = Record<string, number>;

const run = promisify(execFile);

/** The server's counter as it stands, through kubectl (on the image) and the kubeconfig's rights. */
export async function readApiRequests(kubeconfigPath: string): Promise<RequestCounts> {
  const { stdout } = await run('kubectl', ['--kubeconfig', kubeconfigPath, 'get', '--raw', '/metrics'], { maxBuffer: 256 << 20 });
  return parseApiRequests(stdout);
}

/** Sums apiserver_request_total over its other labels (code, scope, version…). */
export function parseApiRequests(metrics: string): RequestCounts {
  const counts: RequestCounts = {};
  for (const line of metrics.split('\n')) {
    const match = /^apiserver_request_total\{([^}]*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key!, value!]));
    // A path that is not a resource (/metrics, /version) comes as the subresource of none.
    const { resource, subresource } = labels;
    const what = resource ? (subresource ? `${resource}/${subresource}` : resource) : subresource || '(no resource)';
    const key = `${labels.verb ?? '?'} ${what}`;
    counts[key] = (counts[key] ?? 0) + Number(match[2]);
  }
  return counts;
}

/** What was answered between two readings, per `per` (Objects), the ones that did not move left out. */
export function requestsBetween(before: RequestCounts, after: RequestCounts, per = 1): RequestCounts {
  const between: RequestCounts = {};
  for (const [key, count] of Object.entries(after)) {
    const perObject = Math.round(((count - (before[key] ?? 0)) / per) * 100) / 100;
    if (perObject > 0) between[key] = perObject;
  }
  return between;
}
