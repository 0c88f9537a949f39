import { createGroupHandler } from '../http/group-handler';

/** Route group `admin`: the admin area. */
export const handler = createGroupHandler('admin', {});
