import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { LazySdk } from '../lazy-sdk';

export type Ses = LazySdk<typeof import('./sdk'), SESv2Client>;

import type { Mailer } from '../../domain/accounts/ports';

/**
 * Sends mail through SES (v2), plain text and HTML in one message, through
 * the configuration set when one is named (bounces and complaints suppress
 * the address; reputation is measured).
 */
export function sesMailer(ses: Ses, from: string, configurationSet?: string): Mailer {
  return {
    async send(message) {
      const { sdk, client } = await ses();
      await client.send(
        new sdk.SendEmailCommand({
          FromEmailAddress: from,
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: message.text, Charset: 'UTF-8' },
                Html: { Data: message.html, Charset: 'UTF-8' },
              },
            },
          },
        }),
      );
    },
  };
}
