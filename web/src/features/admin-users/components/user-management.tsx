import { type AdminUserView, adminToasts } from '@tunesmith/shared/admin';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { AdminPage, EmptyState, LoadFailed } from '@/components/admin/admin-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { type ResponsiveColumn, ResponsiveTable } from '@/components/ui/responsive-table';
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

const fullName = (user: AdminUserView) => `${user.firstName} ${user.lastName}`;

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

  const columns: ResponsiveColumn<AdminUserView>[] = [
    {
      header: 'User',
      place: 'title',
      userText: true,
      cell: (user) => (
        <>
          <p className="font-medium text-white">{fullName(user)}</p>
          <p className="text-zinc-400">{user.email}</p>
          {user.suspended ? (
            <p className="mt-1">
              <Link to="/admin/reports" className="text-sm text-red-300 underline-offset-4 hover:underline">
                Suspended (see Reports)
              </Link>
            </p>
          ) : null}
        </>
      ),
    },
    {
      header: 'Email Status',
      cell: (user) => (
        <div className="flex items-center gap-2">
          <Switch
            checked={user.emailVerified}
            onCheckedChange={(checked) => toggleVerified(user, checked)}
            aria-label={`Email verified for ${fullName(user)}`}
            disabled={update.isPending}
          />
          <span className={user.emailVerified ? 'text-emerald-300' : 'text-amber-300'}>
            {user.emailVerified ? 'Verified' : 'Unverified'}
          </span>
        </div>
      ),
    },
    {
      header: 'Subscription',
      cell: (user) =>
        user.subscriptionPlan && user.planStatus !== 'free' ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-white">{user.subscriptionPlan.name}</span>
            <Badge className="bg-none bg-white/10">{statusLabel[user.planStatus] ?? user.planStatus}</Badge>
          </div>
        ) : (
          <span className="text-zinc-300">Free Plan</span>
        ),
    },
    {
      header: 'Generations',
      className: 'tabular-nums text-zinc-200',
      // The quota the user has now, by the same rule as their profile (an unpaid plan has the free limits).
      cell: (user) =>
        `${user.generationCount}${
          user.subscriptionPlan && user.planStatus !== 'free' ? `/${user.entitlements.weeklyLimit}` : ''
        }`,
    },
    { header: 'Joined', className: 'text-zinc-300', cell: (user) => formatDate(user.createdAt) },
    {
      header: 'Actions',
      place: 'actions',
      cell: (user) => (
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDialog({ kind: 'edit', user })}
            aria-label={`Edit ${fullName(user)}`}
          >
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDialog({ kind: 'plan', user })}
            aria-label={`Manage plan of ${fullName(user)}`}
          >
            Plan
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className="text-red-300 hover:text-red-200"
            onClick={() => setDialog({ kind: 'delete', user })}
            aria-label={`Delete ${fullName(user)}`}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ];

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
        <ResponsiveTable
          caption="Regular users"
          columns={columns}
          rows={rows}
          rowKey={(user) => user.id}
          rowLabel={fullName}
        />
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
