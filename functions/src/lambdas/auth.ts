import { createGroupHandler } from '../http/group-handler';

/** Route group `auth`: sign-up, sign-in, verification, reset and account changes. */
export const handler = createGroupHandler('auth', {});
