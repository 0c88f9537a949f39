import { STEM_SETS, type StemSet } from '@tunesmith/shared/stems';
import { useUser } from '@/lib/auth';

export interface StemOffer {
  /** The sets the plan in force separates into. */
  allowed: readonly StemSet[];
  /** For each set, the plans that have it (empty when not known). */
  plansWith: Record<StemSet, readonly string[]>;
  /** The plan separates into no set, and some plan does: the action offers the plans instead. */
  upgradeOnly: boolean;
  /** No plan separates at all: there is nothing to offer. */
  nowhere: boolean;
}

const unknownPlans: Record<StemSet, readonly string[]> = { '4': [], '6': [] };

/**
 * Which stem sets the signed-in user may ask for, from the server's
 * entitlements (the rule `POST /api/generation/{id}/stems` enforces). Without
 * them (an answer from before stem sets were sent) every set is offered and
 * the server decides.
 */
export function useStemOffer(): StemOffer {
  const { user } = useUser();
  const stems = user?.entitlements?.stems;
  if (!stems) return { allowed: STEM_SETS, plansWith: unknownPlans, upgradeOnly: false, nowhere: false };
  const anywhere = stems.plans['4'].length > 0 || stems.plans['6'].length > 0;
  return {
    allowed: stems.sets,
    plansWith: stems.plans,
    upgradeOnly: stems.sets.length === 0 && anywhere,
    nowhere: stems.sets.length === 0 && !anywhere,
  };
}
