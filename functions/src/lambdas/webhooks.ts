import { createGroupHandler } from '../http/group-handler';

/** Route group `webhooks`: the payment provider's webhook. */
export const handler = createGroupHandler('webhooks', {});
