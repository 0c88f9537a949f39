import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../../domain/accounts/ports';

/**
 * Sends mail through SES (v2), plain text and HTML in one message, through
 * the configuration set when one is named (bounces and complaints suppress
 * the address; reputation is measured).
 */
export function sesMailer(client: SESv2Client, from: string, configurationSet?: string): Mailer {
  return {
    async send(message) {
      await client.send(
        new SendEmailCommand({
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
