import { describe, expect, it } from 'vitest';
import { parseApiRequests, requestsBetween } from './apiserver-requests';

const metrics = (patches: number, events: number) => `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="kubernetes.crossplane.io",resource="objects",scope="resource",subresource="",verb="PATCH",version="v1alpha2"} ${patches}
apiserver_request_total{code="409",component="apiserver",dry_run="",group="kubernetes.crossplane.io",resource="objects",scope="resource",subresource="",verb="PATCH",version="v1alpha2"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="",group="kubernetes.crossplane.io",resource="objects",scope="resource",subresource="status",verb="PATCH",version="v1alpha2"} 7
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="events",scope="namespace",subresource="",verb="POST",version="v1"} ${events}
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""} 2
apiserver_request_duration_seconds_count{verb="PATCH",resource="objects"} 99
`;

describe('API server requests from apiserver_request_total', () => {
  it('sums the counter by verb and resource, with the subresource apart, over codes and other labels', () => {
    expect(parseApiRequests(metrics(10, 4))).toEqual({
      'PATCH objects': 13,
      'PATCH objects/status': 7,
      'POST events': 4,
      'GET /metrics': 2,
    });
  });

  it('gives the requests of a phase per object, leaving out what did not move', () => {
    const before = parseApiRequests(metrics(10, 4));
    const after = parseApiRequests(metrics(2010, 1004));
    expect(requestsBetween(before, after, 1000)).toEqual({ 'PATCH objects': 2, 'POST events': 1 });
  });
});
