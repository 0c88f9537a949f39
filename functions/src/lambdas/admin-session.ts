import { createGroupHandler } from '../http/group-handler';

/** Route group `admin-session`: admin sign-in, sign-out and password. */
export const handler = createGroupHandler('admin-session', {});
