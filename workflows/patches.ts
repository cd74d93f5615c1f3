// The patched() gates of the workflow code (docs/upgrades.md): each id names a change in the
// commands a workflow issues, so histories recorded before it replay on the old branch.
// test/replay/histories holds a history of each branch.

/**
 * Writes folded into the call next to them, one local activity fewer each: the finalizer goes in
 * with the create that follows it (workflows/steps.ts), the events of the pass that releases
 * the object go in with the finalizer's removal, and a delete that answers gone releases the
 * object itself (workflows/pass.ts). One id for all: each `patched()` id costs a marker and a
 * search-attribute upsert in history, once per run. The last needs no id of its own: on a
 * history recorded before it, the delete's recorded answer has no `released`, and the workflow
 * goes on as it did then.
 */
export const FOLDED_WRITES = 'folded-writes';

/**
 * A pass whose step found its object gone writes neither status nor events, and the next pass
 * follows at once (workflows/pass.ts). Before, it wrote a failed status, which failed in turn,
 * and a warning event about the gone object. An id of its own: histories with FOLDED_WRITES
 * may hold the old path, and this one is asked only on that rare path, so it costs nothing else.
 */
export const NO_WRITES_TO_GONE_OBJECT = 'no-writes-to-gone-object';
