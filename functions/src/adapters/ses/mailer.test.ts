import type { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import * as sesSdk from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { lazySdk } from '../lazy-sdk';
import { sesMailer } from './mailer';

const fakeClient = () => {
  const sent: SendEmailCommand['input'][] = [];
  const client = {
    send: async (command: SendEmailCommand) => void sent.push(command.input),
  } as unknown as SESv2Client;
  return {
    client: lazySdk(
      async () => sesSdk,
      () => client,
    ),
    sent,
  };
};

const message = { to: 'ada@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' };

describe('sesMailer', () => {
  it('sends through the configuration set, so bounces and complaints suppress the address', async () => {
    const { client, sent } = fakeClient();
    await sesMailer(client, 'Tunesmith <no-reply@tunesmith.test>', 'tunesmith-mail').send(message);
    expect(sent[0]).toMatchObject({
      FromEmailAddress: 'Tunesmith <no-reply@tunesmith.test>',
      ConfigurationSetName: 'tunesmith-mail',
      Destination: { ToAddresses: ['ada@example.com'] },
    });
  });

  it('sends without one where there is none (the local SES)', async () => {
    const { client, sent } = fakeClient();
    await sesMailer(client, 'no-reply@tunesmith.test').send(message);
    expect(sent[0]?.ConfigurationSetName).toBeUndefined();
  });
});
