import { createGroupHandler } from '../http/group-handler';

/** Route group `uploads`: presigned audio uploads. */
export const handler = createGroupHandler('uploads', {});
