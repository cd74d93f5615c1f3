// One entry of the bad-input corpus: something a real user gets wrong, or a hostile user
// tries, and the outcome that user should get. The corpus runner (corpus.test.ts) applies every
// case against the real servers, checks the outcome, checks that no hot loop follows, deletes
// what it applied and checks that nothing is left at EC2 or in a target cluster.

/** A Kubernetes manifest, as JSON (kubectl reads YAML 1.1, where `yes` would become a boolean). */
export type Manifest = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown> };

/** The API server refuses the bad manifest: admission (CRD schema, CEL rules, policies). */
export interface RefusedAtAdmission {
  refused: {
    /** Matched against kubectl's error output; it must name the field or say what is wrong. */
    message: RegExp;
  };
}

/** The object is admitted, and a condition explains the mistake within seconds. */
export interface ExplainedInCondition {
  condition: {
    type: 'Synced' | 'Ready';
    status: 'False' | 'True' | 'Unknown';
    /** Crossplane's reasons: ReconcileError, Unavailable, Creating, Deleting … */
    reason?: string;
    /** Matched against the condition's message: it must say what is wrong, in the user's terms. */
    message: RegExp;
  };
}

export type Outcome = RefusedAtAdmission | ExplainedInCondition;

export interface BadInputCase {
  /** Unique in the corpus, also the prefix of every object name the case uses, e.g. `vpc-cidr-host-bits`. */
  name: string;
  /** The mistake in one line, as a user would describe it. */
  mistake: string;
  /**
   * Applied first, and expected to be admitted: Secrets, ProviderConfigs, objects the bad one
   * refers to. They go in the corpus namespace unless they name another.
   */
  setup?: Manifest[];
  /**
   * Setup objects that must be Ready (kind as kubectl names it, and name) before `apply` goes
   * in: for edits of a resource that exists.
   */
  readyFirst?: { kind: string; name: string }[];
  /** The bad manifest(s), applied after the setup. The outcome is about the last one. */
  apply: Manifest[];
  expect: Outcome;
  /**
   * Applied with `kubectl apply --server-side`, as a user must apply an object too large for
   * client-side apply's last-applied annotation (256 KB). One by one, after the batch.
   */
  serverSide?: true;
  /**
   * At deletion, what only this case needs: for example a broken ProviderConfig that must stay
   * broken while its objects are deleted. Nothing by default: everything applied is deleted.
   */
  deletion?: {
    /** Deleted first and waited for (e.g. the bad object), before the setup goes. */
    first?: { kind: string; name: string }[];
  };
}

export const isRefused = (outcome: Outcome): outcome is RefusedAtAdmission => 'refused' in outcome;

/**
 * The namespace in each remote cluster (remote-1, remote-2) where the corpus's Objects and
 * workloads put what they make, so the runner can check that nothing is left there.
 */
export const TARGET_NAMESPACE = 'bad-input-targets';

/**
 * Stands for the corpus namespace (it has a random suffix) in any string of a manifest, such as
 * a ProviderConfig's `secretRef.namespace`, and in a case's expected `message`: the runner puts
 * the real name in before it applies or matches. Added by the runner (corpus.test.ts) for the
 * AWS cases, whose credentials Secrets must be named with their namespace; any case may use it.
 */
export const CORPUS_NAMESPACE = 'corpus-namespace-placeholder';
