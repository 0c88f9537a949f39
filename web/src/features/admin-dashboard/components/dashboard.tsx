import { useQuery } from '@tanstack/react-query';
import { type DashboardStats, dashboardStatsSchema } from '@tunesmith/shared/admin';
import * as adminCalls from '@tunesmith/shared/calls/admin';
import { Link } from 'react-router';
import { AdminPage, LoadFailed, StatCard } from '@/components/admin/admin-page';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest } from '@/lib/api-client';
import { adminQueryKeys } from '@/lib/query-keys';

const quickLinks = [
  { to: '/admin/users', label: 'Manage Users', text: 'Accounts, plans and verification' },
  { to: '/admin/plans', label: 'Manage Plans', text: 'Prices, quotas and features' },
  { to: '/admin/models', label: 'Models', text: 'On or off, default, cost and plans' },
  { to: '/admin/tracks', label: 'Manage Tracks', text: 'Titles, gallery and removal' },
  { to: '/admin/settings', label: 'Site Settings', text: 'General, Stripe and security' },
] as const;

const dollars = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** This week's generations and provider spend per model, busiest first. */
function ModelsThisWeek({ models }: { models: DashboardStats['models'] | undefined }) {
  const rows = [...(models ?? [])].sort((a, b) => b.generations - a.generations);
  return (
    <Card className="p-6">
      <h2 id="models-this-week" className="text-lg font-semibold text-white">
        This week by model
      </h2>
      {models === undefined ? (
        <Skeleton className="mt-4 h-20 w-full" />
      ) : rows.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-400">No generations this week.</p>
      ) : (
        <table aria-labelledby="models-this-week" className="mt-4 w-full text-left text-sm">
          <thead className="text-zinc-400">
            <tr>
              <th scope="col" className="pb-2 font-medium">
                Model
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                Generations
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                Provider spend
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-white/10">
                <th scope="row" className="py-2 font-medium text-zinc-100">
                  {row.name}
                </th>
                <td className="py-2 text-right text-zinc-100 tabular-nums">
                  {row.generations.toLocaleString('en-US')}
                </td>
                <td className="py-2 text-right text-zinc-100 tabular-nums">{dollars(row.spendUsd)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="text-zinc-300">
            <tr className="border-t border-white/20">
              <th scope="row" className="pt-2 font-medium">
                Total
              </th>
              <td className="pt-2 text-right tabular-nums">
                {rows.reduce((sum, row) => sum + row.generations, 0).toLocaleString('en-US')}
              </td>
              <td className="pt-2 text-right tabular-nums">
                {dollars(rows.reduce((sum, row) => sum + row.spendUsd, 0))}
              </td>
            </tr>
          </tfoot>
        </table>
      )}
      <p className="mt-3 text-xs text-zinc-400">
        Spend is reckoned from each track's length and fal's price.
      </p>
    </Card>
  );
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** The dashboard: six counters, public versus private tracks, quick links and recent admin activity. */
export function Dashboard() {
  const stats = useQuery({
    queryKey: adminQueryKeys.stats,
    queryFn: async () => dashboardStatsSchema.parse(await apiRequest(adminCalls.adminDashboardStats)),
  });
  const data = stats.data;
  const tracks = data ? data.publicTracks + data.privateTracks : 0;
  const publicShare = data ? percent(data.publicTracks, tracks) : 0;

  return (
    <AdminPage title="Dashboard">
      {stats.isError ? <LoadFailed what="the statistics" onRetry={() => void stats.refetch()} /> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <StatCard label="Total Users" value={data?.totalUsers} />
        <StatCard label="Total Generations" value={data?.totalGenerations} />
        <StatCard label="Public Tracks" value={data?.publicTracks} />
        <StatCard label="Private Tracks" value={data?.privateTracks} />
        <StatCard label="New Users Today" value={data?.newUsersToday} />
        <StatCard label="Generations Today" value={data?.generationsToday} />
      </div>
      {data ? (
        <p className="text-sm text-zinc-400">
          "Today" is the UTC day {data.day}; counters update as accounts and tracks are made.
        </p>
      ) : null}

      <Card className="p-6">
        <h2 className="text-lg font-semibold text-white">Public vs Private Tracks</h2>
        <div
          role="img"
          aria-label={`${publicShare}% public, ${tracks ? 100 - publicShare : 0}% private`}
          className="mt-4 flex h-4 overflow-hidden rounded-full bg-zinc-800"
        >
          <div className="bg-violet-500" style={{ width: `${publicShare}%` }} />
          <div className="bg-fuchsia-800" style={{ width: `${tracks ? 100 - publicShare : 0}%` }} />
        </div>
        <div className="mt-3 flex justify-between text-sm text-zinc-300">
          <span>Public: {data?.publicTracks ?? 0}</span>
          <span>Private: {data?.privateTracks ?? 0}</span>
        </div>
      </Card>

      <ModelsThisWeek models={data ? (data.models ?? []) : undefined} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-white">Quick Actions</h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2">
            {quickLinks.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="block rounded-xl border border-white/10 bg-zinc-950/40 p-4 transition-colors hover:border-violet-400/60 focus-visible:outline-2 focus-visible:outline-violet-300"
                >
                  <span className="font-medium text-white">{link.label}</span>
                  <span className="mt-1 block text-sm text-zinc-400">{link.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-white">Recent Activity</h2>
          {data && data.recentActivity.length === 0 ? (
            <p className="mt-4 text-sm text-zinc-400">No admin changes yet.</p>
          ) : (
            <ul className="mt-4 grid gap-3" aria-label="Recent admin activity">
              {(data?.recentActivity ?? []).map((entry) => (
                <li key={entry.id} className="text-sm">
                  <p className="text-zinc-100">{entry.summary}</p>
                  <p className="text-zinc-400">
                    {entry.actor} ·{' '}
                    <time dateTime={entry.at}>{new Date(entry.at).toLocaleString('en-US')}</time>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </AdminPage>
  );
}
