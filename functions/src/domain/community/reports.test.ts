import type { AuditEntry } from '@tunesmith/shared/admin';
import { REPORTS_PER_WINDOW } from '@tunesmith/shared/reports';
import { describe, expect, it } from 'vitest';
import { aGeneration, aUser } from '../../testing/fixtures';
import { fakeClock, inMemoryLimiter, inMemoryUsers } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemoryProfiles, inMemoryReports } from '../../testing/in-memory-reports';
import { inMemorySharePages, shareDeps } from '../../testing/in-memory-share-pages';
import { COMMUNITY_DELETION_ORDER, removeCommunityRecords } from '../accounts/account-deletion';
import type { DomainError } from '../errors';
import { getForViewer, getPlayableForViewer } from '../generations/generation-service';
import { refreshSharePage } from '../tracks/share-page';
import { isGalleryVisible } from '../tracks/track';
import {
  listReports,
  type ModerationDeps,
  type ReportingDeps,
  removeUserReports,
  reportProfile,
  reportTrack,
  resolveReport,
} from './reports';

const admin = { username: 'ops' };
const owner = aUser({ id: 'owner' });
const reporter = { id: 'reporter' };
const other = { id: 'other' };

async function setup() {
  const clock = fakeClock('2026-11-29T10:00:00.000Z');
  const generations = inMemoryGenerationStore([
    aGeneration({ id: 't1', userId: 'owner', title: 'Night Drive' }),
    aGeneration({ id: 'private', userId: 'owner', visibility: 'private' }),
    aGeneration({ id: 'mine', userId: 'reporter' }),
  ]);
  const users = inMemoryUsers();
  await users.create(owner);
  const reports = inMemoryReports();
  const profiles = inMemoryProfiles([
    { userId: 'owner', handle: 'NightOwl', hidden: false },
    { userId: 'reporter', handle: 'reporter', hidden: false },
  ]);
  const pages = inMemorySharePages();
  const sharePages = shareDeps(generations, pages);
  await refreshSharePage(sharePages, 't1');
  const audit: AuditEntry[] = [];
  const signedOut: string[] = [];
  let n = 0;
  const newId = () => `id-${++n}`;
  const reporting: ReportingDeps = {
    reports,
    generations,
    profiles,
    limiter: inMemoryLimiter(),
    clock,
    newId,
  };
  const moderation: ModerationDeps = {
    reports,
    generations,
    profiles,
    users,
    identity: {
      signOutEverywhere: async (id) => {
        signedOut.push(id);
      },
    },
    sharePages,
    audit: { record: async (e) => void audit.push(e), recent: async () => audit },
    clock,
    newId,
  };
  return { clock, generations, users, reports, profiles, pages, audit, signedOut, reporting, moderation };
}

const failure = async (promise: Promise<unknown>): Promise<DomainError> =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: DomainError) => error,
  );

describe('reporting', () => {
  it('keeps a report of a track the reporter may see, open, naming the track as it was', async () => {
    const s = await setup();
    expect(
      await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam', details: '  ads  ' })),
    ).toEqual({
      reported: true,
    });
    const { reports } = await listReports(s.moderation);
    expect(reports).toEqual([
      {
        id: 'id-1',
        subject: { kind: 'track', id: 't1', label: 'Night Drive' },
        ownerId: 'owner',
        reporterId: 'reporter',
        reason: 'spam',
        details: 'ads',
        status: 'open',
        createdAt: '2026-11-29T10:00:00.000Z',
        resolvedAt: null,
        resolvedBy: null,
      },
    ]);
  });

  it('accepts a repeat of an open report without keeping it twice', async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    expect(await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'hate' }))).toEqual({
      reported: true,
    });
    expect(s.reports.all.size).toBe(1);
    // Someone else's report of it is their own.
    await reportTrack(s.reporting, other, 't1', () => ({ reason: 'hate' }));
    expect(s.reports.all.size).toBe(2);
  });

  it('answers not found for a track the reporter may not see, and refuses their own', async () => {
    const s = await setup();
    expect(
      (await failure(reportTrack(s.reporting, reporter, 'private', () => ({ reason: 'spam' })))).kind,
    ).toBe('not-found');
    expect((await failure(reportTrack(s.reporting, reporter, 'nope', () => ({ reason: 'spam' })))).kind).toBe(
      'not-found',
    );
    const own = await failure(reportTrack(s.reporting, reporter, 'mine', () => ({ reason: 'spam' })));
    expect([own.kind, own.message]).toEqual(['validation', 'You cannot report your own content.']);
    expect(s.reports.all.size).toBe(0);
  });

  it(`allows ${REPORTS_PER_WINDOW} reports an hour, then answers 429 with a message`, async () => {
    const s = await setup();
    for (let i = 0; i < REPORTS_PER_WINDOW; i++) {
      await s.generations.create(aGeneration({ id: `x${i}`, userId: 'owner' }));
      await reportTrack(s.reporting, reporter, `x${i}`, () => ({ reason: 'spam' }));
    }
    const error = await failure(reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' })));
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toMatch(/many reports/);
    expect(s.reports.all.size).toBe(REPORTS_PER_WINDOW);
  });

  it('reports a public profile by its handle in any case; a hidden or unknown one is not found; never one’s own', async () => {
    const s = await setup();
    await reportProfile(s.reporting, reporter, 'nightowl', () => ({ reason: 'impersonation' }));
    expect([...s.reports.all.values()][0]?.subject).toEqual({
      kind: 'profile',
      id: 'owner',
      label: 'NightOwl',
    });
    expect(
      (await failure(reportProfile(s.reporting, reporter, 'ghost', () => ({ reason: 'spam' })))).kind,
    ).toBe('not-found');
    expect(
      (await failure(reportProfile(s.reporting, reporter, 'Reporter', () => ({ reason: 'spam' })))).kind,
    ).toBe('validation');
    await s.profiles.setHidden('owner', true);
    expect(
      (await failure(reportProfile(s.reporting, other, 'nightowl', () => ({ reason: 'spam' })))).kind,
    ).toBe('not-found');
  });
});

describe('resolving a report', () => {
  it('hides the track at once for everyone but its owner, takes its share page down, resolves its other open reports, and audits it', async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    await reportTrack(s.reporting, other, 't1', () => ({ reason: 'hate' }));
    expect(s.pages.documents.has('t1')).toBe(true);

    const resolved = await resolveReport(s.moderation, admin, 'id-1', 'hide');

    expect(resolved).toMatchObject({
      status: 'hidden',
      resolvedBy: 'ops',
      resolvedAt: '2026-11-29T10:00:00.000Z',
    });
    expect(s.reports.all.get('id-2')?.status).toBe('hidden');
    const track = s.generations.all.get('t1');
    expect(track?.hidden).toBe(true);
    expect(track && isGalleryVisible(track)).toBe(false);
    expect(s.pages.documents.has('t1')).toBe(false);
    expect((await failure(getForViewer({ generations: s.generations }, reporter, 't1'))).kind).toBe(
      'not-found',
    );
    expect((await failure(getForViewer({ generations: s.generations }, undefined, 't1'))).kind).toBe(
      'not-found',
    );
    expect((await failure(getPlayableForViewer({ generations: s.generations }, undefined, 't1'))).kind).toBe(
      'not-found',
    );
    expect((await getForViewer({ generations: s.generations }, owner, 't1')).hidden).toBe(true);
    expect(s.audit).toEqual([
      expect.objectContaining({
        actor: 'ops',
        action: 'report.hide',
        target: 'id-1',
        summary: expect.stringContaining('Night Drive'),
      }),
    ]);
    // A resolved report is not resolved again.
    expect((await failure(resolveReport(s.moderation, admin, 'id-1', 'dismiss'))).kind).toBe('conflict');
  });

  it('dismisses: nothing is hidden, the report is closed and audited', async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    expect((await resolveReport(s.moderation, admin, 'id-1', 'dismiss')).status).toBe('dismissed');
    expect(s.generations.all.get('t1')?.hidden).toBeUndefined();
    expect(s.pages.documents.has('t1')).toBe(true);
    expect(s.audit.map((e) => e.action)).toEqual(['report.dismiss']);
    expect((await failure(resolveReport(s.moderation, admin, 'id-1', 'restore'))).kind).toBe('conflict');
  });

  it('suspends the owner: sessions end, the profile and the subject are hidden; restore lifts it all', async () => {
    const s = await setup();
    await reportProfile(s.reporting, reporter, 'NightOwl', () => ({ reason: 'harassment' }));

    await resolveReport(s.moderation, admin, 'id-1', 'suspend');
    const suspended = s.users.all.get('owner');
    expect(suspended?.suspended).toBe(true);
    expect(suspended?.sessionsValidAfter).toBe(Math.floor(s.clock.now().getTime() / 1000) + 1);
    expect(s.signedOut).toEqual(['owner']);
    expect(s.profiles.all.get('owner')?.hidden).toBe(true);

    const restored = await resolveReport(s.moderation, admin, 'id-1', 'restore');
    expect(restored.status).toBe('restored');
    expect(s.users.all.get('owner')?.suspended).toBe(false);
    expect(s.profiles.all.get('owner')?.hidden).toBe(false);
    expect(s.audit.map((e) => e.action)).toEqual(['report.suspend', 'report.restore']);
  });

  it('restores a hidden track: listed again and its share page back', async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    await resolveReport(s.moderation, admin, 'id-1', 'hide');
    await resolveReport(s.moderation, admin, 'id-1', 'restore');
    const track = s.generations.all.get('t1');
    expect(track && isGalleryVisible(track)).toBe(true);
    expect(s.pages.documents.has('t1')).toBe(true);
    expect((await getForViewer({ generations: s.generations }, reporter, 't1')).id).toBe('t1');
  });

  it('answers not found for an unknown report', async () => {
    const s = await setup();
    expect((await failure(resolveReport(s.moderation, admin, 'nope', 'hide'))).kind).toBe('not-found');
  });

  it('lists open reports first, oldest first, then resolved ones, newest first', async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    s.clock.advance(1000);
    await reportProfile(s.reporting, reporter, 'nightowl', () => ({ reason: 'spam' }));
    s.clock.advance(1000);
    await reportTrack(s.reporting, other, 't1', () => ({ reason: 'spam' }));
    s.clock.advance(1000);
    await resolveReport(s.moderation, admin, 'id-2', 'dismiss');
    const { reports } = await listReports(s.moderation);
    expect(reports.map((r) => [r.id, r.status])).toEqual([
      ['id-1', 'open'],
      ['id-3', 'open'],
      ['id-2', 'dismissed'],
    ]);
  });
});

describe('account deletion', () => {
  it("removes the user's reports, closes the open reports about their content, and can run again", async () => {
    const s = await setup();
    await reportTrack(s.reporting, reporter, 't1', () => ({ reason: 'spam' }));
    await reportTrack(s.reporting, { id: 'owner' }, 'mine', () => ({ reason: 'spam' }));
    await removeUserReports(s.moderation, 'owner');
    await removeUserReports(s.moderation, 'owner');
    expect([...s.reports.all.values()].map((r) => [r.reporterId, r.status])).toEqual([
      ['reporter', 'closed'],
    ]);
  });

  it('runs each wired community step in its order', async () => {
    const ran: string[] = [];
    const step = (part: string) => ({ removeUser: async (id: string) => void ran.push(`${part}:${id}`) });
    await removeCommunityRecords(
      { reports: step('reports'), likesAndPlays: step('likesAndPlays'), creators: step('creators') },
      'u',
    );
    expect(ran).toEqual(['likesAndPlays:u', 'creators:u', 'reports:u']);
    expect(COMMUNITY_DELETION_ORDER.at(-1)).toBe('reports');
  });
});
