import { createGroupHandler } from '../http/group-handler';

/** Route group `billing`: checkout, customer portal and cancellation. */
export const handler = createGroupHandler('billing', {});
