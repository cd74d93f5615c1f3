// resourceVersions as the etcd revisions they are. Kubernetes calls them opaque, but a single
// etcd numbers every change with one growing revision, and that is what lets a cache say "I
// have applied everything up to the revision of this watch event". Anything that does not parse
// (another storage backend, an empty string) is never compared: whoever needs an answer then
// reads from the API server. Pure, so workflow code may use it too.

/** The revision a resourceVersion stands for, or undefined when it is not a plain number. */
function revisionOf(resourceVersion: string | undefined): bigint | undefined {
  return resourceVersion !== undefined && /^\d{1,19}$/.test(resourceVersion) ? BigInt(resourceVersion) : undefined;
}

/**
 * Whether a cache that has applied every change up to `applied` has seen `needed`; undefined
 * when either does not parse, so the caller cannot know.
 */
export function hasSeen(applied: string | undefined, needed: string): boolean | undefined {
  const [have, need] = [revisionOf(applied), revisionOf(needed)];
  return have === undefined || need === undefined ? undefined : have >= need;
}

/**
 * The later of some resourceVersions: the one a reader must have seen to have seen them all.
 * Empty ones carry nothing and are skipped; one that does not parse wins, because no cache can
 * prove it has seen it, so the reader falls back to the API server.
 */
export function latestResourceVersion(...versions: (string | undefined)[]): string | undefined {
  let latest: string | undefined;
  for (const version of versions) {
    if (!version) continue;
    if (latest === undefined || revisionOf(version) === undefined) latest = version;
    else if (revisionOf(latest) !== undefined && revisionOf(version)! > revisionOf(latest)!) latest = version;
  }
  return latest;
}
