import { type AdminUserView, adminToasts } from '@tunesmith/shared/admin';
import { useEffect, useId, useState } from 'react';
import { AdminPage, EmptyState, LoadFailed } from '@/components/admin/admin-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { serverMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAdminUsers, useDeleteUser, useUpdateUser } from '../api';
import { EditUserDialog, PlanDialog } from './user-dialogs';

const SEARCH_DELAY_MS = 300;
const statusLabel: Record<string, string> = {
  active: 'Active',
  cancelled: 'Cancelled',
  expired: 'Expired',
  inactive: 'Inactive',
};

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type Dialog = { kind: 'edit' | 'plan' | 'delete'; user: AdminUserView } | null;

/** User Management: every user with plan and usage, searched and paged on the server. */
export function UserManagement() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const users = useAdminUsers(q);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const [dialog, setDialog] = useState<Dialog>(null);
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];
  const total = users.data?.pages[0]?.total;

  const toggleVerified = (user: AdminUserView, emailVerified: boolean) =>
    update.mutate(
      { id: user.id, changes: { emailVerified } },
      {
        onSuccess: () =>
          toast({
            title: adminToasts.emailStatusUpdated,
            description: `${user.email} is now ${emailVerified ? 'verified' : 'unverified'}.`,
          }),
        onError: (error) =>
          toast({
            title: adminToasts.updateFailed,
            description: serverMessage(error, adminToasts.failedUpdateVerification),
            variant: 'destructive',
          }),
      },
    );

  const confirmDelete = (user: AdminUserView) =>
    remove.mutate(user.id, {
      onSuccess: () => {
        setDialog(null);
        toast({ title: adminToasts.userDeleted, description: `${user.email} and their data were deleted.` });
      },
      onError: (error) => {
        setDialog(null);
        toast({
          title: adminToasts.deleteFailed,
          description: serverMessage(error, adminToasts.failedDeleteUser),
          variant: 'destructive',
        });
      },
    });

  return (
    <AdminPage
      title="User Management"
      badge={total === undefined ? null : <Badge aria-label={`${total} users in total`}>{total} users</Badge>}
    >
      <div className="max-w-md">
        <label htmlFor={searchId} className="sr-only">
          Search users by name or email
        </label>
        <Input
          id={searchId}
          type="search"
          placeholder="Search by name or email..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {users.isError ? <LoadFailed what="users" onRetry={() => void users.refetch()} /> : null}
      {users.isLoading ? <Spinner label="Loading users" /> : null}
      {users.isSuccess && rows.length === 0 ? <EmptyState>No users found</EmptyState> : null}
      {rows.length > 0 ? (
        <Card className="overflow-x-auto">
          <table className="w-full min-w-[760px] text-left text-sm">
            <caption className="sr-only">Regular users</caption>
            <thead className="border-b border-white/10 text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  User
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email Status
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Subscription
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Generations
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Joined
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => {
                const name = `${user.firstName} ${user.lastName}`;
                return (
                  <tr key={user.id} className="border-b border-white/5 last:border-0">
                    <td className="px-4 py-3">
                      <p className="font-medium text-white">{name}</p>
                      <p className="text-zinc-400">{user.email}</p>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex items-center gap-2">
                        <Switch
                          checked={user.emailVerified}
                          onCheckedChange={(checked) => toggleVerified(user, checked)}
                          aria-label={`Email verified for ${name}`}
                          disabled={update.isPending}
                        />
                        <span className={user.emailVerified ? 'text-emerald-300' : 'text-amber-300'}>
                          {user.emailVerified ? 'Verified' : 'Unverified'}
                        </span>
                      </div>
                    </td>
                    <td className="px-4 py-3">
                      {user.subscriptionPlan && user.planStatus !== 'free' ? (
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="text-white">{user.subscriptionPlan.name}</span>
                          <Badge className="bg-none bg-white/10">
                            {statusLabel[user.planStatus] ?? user.planStatus}
                          </Badge>
                        </div>
                      ) : (
                        <span className="text-zinc-300">Free Plan</span>
                      )}
                    </td>
                    <td className="px-4 py-3 tabular-nums text-zinc-200">
                      {user.generationCount}
                      {/* The quota the user has now, by the same rule as their profile (an unpaid plan has the free limits). */}
                      {user.subscriptionPlan && user.planStatus !== 'free'
                        ? `/${user.entitlements.weeklyLimit}`
                        : ''}
                    </td>
                    <td className="px-4 py-3 text-zinc-300">{formatDate(user.createdAt)}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap gap-1">
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => setDialog({ kind: 'edit', user })}
                          aria-label={`Edit ${name}`}
                        >
                          Edit
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => setDialog({ kind: 'plan', user })}
                          aria-label={`Manage plan of ${name}`}
                        >
                          Plan
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-red-300 hover:text-red-200"
                          onClick={() => setDialog({ kind: 'delete', user })}
                          aria-label={`Delete ${name}`}
                        >
                          Delete
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
      ) : null}
      {users.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="outline"
            onClick={() => void users.fetchNextPage()}
            disabled={users.isFetchingNextPage}
          >
            {users.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </Button>
        </div>
      ) : null}

      {dialog?.kind === 'edit' ? <EditUserDialog user={dialog.user} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'plan' ? <PlanDialog user={dialog.user} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Delete this user?"
        description={
          dialog?.kind === 'delete'
            ? `${dialog.user.email} will be deleted with all their tracks, uploads and sessions; a running subscription is cancelled. This cannot be undone.`
            : undefined
        }
        confirmLabel="Delete User"
        destructive
        pending={remove.isPending}
        onConfirm={() => dialog && confirmDelete(dialog.user)}
      />
    </AdminPage>
  );
}
