import { useUser } from '@/lib/auth';
import { formatWeekdayDate } from '@/lib/format';
import { studioMessages } from '../messages';

/** The Free plan's weekly quota (the Terms), when the server has not said. */
const FREE_WEEKLY_LIMIT = 5;

/**
 * What a studio action costs: one of the plan's weekly generations, and how
 * many are left (from the signed-in user's profile, as the server counts them).
 */
export function StudioCost({ id }: { id?: string }) {
  const { user } = useUser();
  const limit = user?.entitlements?.weeklyLimit ?? FREE_WEEKLY_LIMIT;
  const used = user?.generationsUsedThisMonth;
  const left = used == null ? null : Math.max(0, limit - used);
  return (
    <p
      id={id}
      className="rounded-lg border border-violet-400/30 bg-violet-500/10 px-3 py-2 text-sm text-zinc-100"
    >
      {studioMessages.cost(limit)}
      {left == null
        ? null
        : ` ${left > 0 ? studioMessages.left(left) : studioMessages.noneLeft(user?.quotaResetsAt ? formatWeekdayDate(user.quotaResetsAt) : '')}`}
    </p>
  );
}
