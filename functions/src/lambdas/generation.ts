import { createGroupHandler } from '../http/group-handler';

/** Route group `generation`: generation, lyrics and the library. */
export const handler = createGroupHandler('generation', {});
