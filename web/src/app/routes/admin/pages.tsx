/** The admin area's pages, in one lazily loaded chunk: a visitor's first load carries none of them. */
export { Dashboard } from '@/features/admin-dashboard/components/dashboard';
export { ModelSettings as Models } from '@/features/admin-models/components/model-settings';
export { SubscriptionPlans as Plans } from '@/features/admin-plans/components/subscription-plans';
export { MusicTracks as Tracks } from '@/features/admin-tracks/components/music-tracks';
export { UserManagement as Users } from '@/features/admin-users/components/user-management';
