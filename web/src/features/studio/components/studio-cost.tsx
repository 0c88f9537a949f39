import { useUser } from '@/lib/auth';
import { formatWeekdayDate } from '@/lib/format';
import { studioMessages } from '../messages';

/** The Free plan's weekly quota (the Terms), when the server has not said. */
const FREE_WEEKLY_LIMIT = 5;

export interface StudioQuota {
  /** The plan's generations a week. */
  limit: number;
  /** How many are left this week; null until the profile says. */
  left: number | null;
  /** When the count starts again, as the dialogs write it ('' when not known). */
  resets: string;
}

/** This week's generations, from the signed-in user's profile as the server counts them. */
export function useStudioQuota(): StudioQuota {
  const { user } = useUser();
  const limit = user?.entitlements?.weeklyLimit ?? FREE_WEEKLY_LIMIT;
  const used = user?.generationsUsedThisMonth;
  return {
    limit,
    left: used == null ? null : Math.max(0, limit - used),
    resets: user?.quotaResetsAt ? formatWeekdayDate(user.quotaResetsAt) : '',
  };
}

/** What a studio action costs: `units` of the plan's weekly generations (the model's cost), and how many are left. */
export function StudioCost({ quota, units = 1 }: { quota: StudioQuota; units?: number }) {
  const { limit, left, resets } = quota;
  return (
    <p className="rounded-lg border border-violet-400/30 bg-violet-500/10 px-3 py-2 text-sm text-zinc-100">
      {studioMessages.cost(limit, units)}
      {left == null
        ? null
        : ` ${left >= units ? studioMessages.left(left) : left > 0 ? studioMessages.tooFewLeft(left) : studioMessages.noneLeft(resets)}`}
    </p>
  );
}
