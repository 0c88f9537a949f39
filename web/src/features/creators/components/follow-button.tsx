import { Button } from '@/components/ui/button';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useFollow } from '../api/follow';

/** Follow / Following, a toggle button (aria-pressed) with the follower count beside it. */
export function FollowButton({ handle, following }: { handle: string; following: boolean }) {
  const handleUnauthorized = useUnauthorizedHandler();
  const follow = useFollow(handle, {
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: following ? 'Could not unfollow' : 'Could not follow',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });
  return (
    <Button
      type="button"
      variant={following ? 'outline' : 'primary'}
      aria-pressed={following}
      disabled={follow.isPending}
      onClick={() => follow.mutate(!following)}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
