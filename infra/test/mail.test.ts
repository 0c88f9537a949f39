import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_MAIL_FROM, senderAddress } from '../lib/mail';
import {
  actionsOf,
  functionsByEntry,
  propsOf,
  type Resource,
  type Statement,
  statementsOfFunction,
  synth,
} from './helpers';

// Account mail on AWS: the sender from `-c mailFrom=...` (or MAIL_FROM), an SES
// domain identity only with `-c mailDomain=...`, and the send grant.

let savedMailFrom: string | undefined;
beforeEach(() => {
  savedMailFrom = process.env.MAIL_FROM;
  delete process.env.MAIL_FROM;
});
afterEach(() => {
  if (savedMailFrom === undefined) delete process.env.MAIL_FROM;
  else process.env.MAIL_FROM = savedMailFrom;
});

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.values(resources).filter((r) => r.Type === type);

function environmentOf(resources: Record<string, Resource>, group: string): Record<string, unknown> {
  const id = functionsByEntry(resources).get(group)?.[0] as string;
  return (propsOf(resources[id]).Environment as { Variables: Record<string, unknown> }).Variables;
}

function sesGrantOf(resources: Record<string, Resource>, group: string) {
  const id = functionsByEntry(resources).get(group)?.[0] as string;
  return statementsOfFunction(resources, id).filter((s) =>
    actionsOf(s).some((a) => a.startsWith('ses:')),
  ) as (Statement & {
    Condition?: unknown;
  })[];
}

describe('senderAddress', () => {
  it('takes the address out of "Name <address>" or a bare address', () => {
    expect(senderAddress('Tunesmith <No-Reply@Example.com>')).toBe('no-reply@example.com');
    expect(senderAddress('hello@example.com')).toBe('hello@example.com');
    expect(() => senderAddress('Tunesmith')).toThrow(/no valid address/);
    expect(() => senderAddress('Tunesmith <nobody>')).toThrow(/no valid address/);
  });
});

describe('with -c mailFrom and -c mailDomain', () => {
  it('creates the domain identity with Easy DKIM, outputs its DNS records, and sends as the sender', () => {
    const { resources, template } = synth({
      context: { mailFrom: 'Tunesmith <hello@mail.example.org>', mailDomain: 'example.org' },
    });

    const identities = ofType(resources, 'AWS::SES::EmailIdentity');
    expect(identities).toHaveLength(1);
    expect(identities[0]?.Properties?.EmailIdentity).toBe('example.org');
    const outputs = Object.keys(template.toJSON().Outputs ?? {}).filter((name) =>
      name.startsWith('MailDkim'),
    );
    expect(outputs.sort()).toEqual(['MailDkimRecord1', 'MailDkimRecord2', 'MailDkimRecord3']);

    expect(environmentOf(resources, 'auth').MAIL_FROM).toBe('Tunesmith <hello@mail.example.org>');
    const [grant] = sesGrantOf(resources, 'auth');
    expect(grant?.Condition).toEqual({
      StringEqualsIgnoreCase: { 'ses:FromAddress': 'hello@mail.example.org' },
    });
  });

  it('refuses a sender outside the domain, and a sender without an address', () => {
    expect(() => synth({ context: { mailFrom: 'a@other.org', mailDomain: 'example.org' } })).toThrow(
      /not in mailDomain example.org/,
    );
    expect(() => synth({ context: { mailFrom: 'Tunesmith' } })).toThrow(/no valid address/);
  });
});

describe('a second stage on the same mail domain (-c mailIdentity=existing)', () => {
  it('reuses the SES identity another stage owns instead of creating one SES would refuse, and still sends only as the sender', () => {
    const { resources, template } = synth({
      context: {
        mailFrom: 'Tunesmith <hello@mail.example.org>',
        mailDomain: 'example.org',
        mailIdentity: 'existing',
      },
    });
    expect(ofType(resources, 'AWS::SES::EmailIdentity')).toEqual([]);
    // The DNS records are the owning stage's outputs.
    expect(
      Object.keys(template.toJSON().Outputs ?? {}).filter((name) => name.startsWith('MailDkim')),
    ).toEqual([]);
    expect(sesGrantOf(resources, 'auth')[0]?.Condition).toEqual({
      StringEqualsIgnoreCase: { 'ses:FromAddress': 'hello@mail.example.org' },
    });
  });

  it('still refuses a sender outside the domain, a value it does not know, and the setting without a domain', () => {
    const context = { mailFrom: 'a@other.org', mailDomain: 'example.org', mailIdentity: 'existing' };
    expect(() => synth({ context })).toThrow(/not in mailDomain example.org/);
    expect(() => synth({ context: { mailDomain: 'example.org', mailIdentity: 'shared' } })).toThrow(
      /mailIdentity "shared" is not create or existing/,
    );
    expect(() => synth({ context: { mailIdentity: 'existing' } })).toThrow(/give the domain too/);
  });
});

describe('without mailDomain', () => {
  it('creates no SES identity and takes the sender from MAIL_FROM when no context is given', () => {
    process.env.MAIL_FROM = 'Site <site@example.net>';
    const { resources } = synth({ context: { mailFrom: '' } });

    expect(ofType(resources, 'AWS::SES::EmailIdentity')).toEqual([]);
    expect(environmentOf(resources, 'auth').MAIL_FROM).toBe('Site <site@example.net>');
    expect(sesGrantOf(resources, 'auth')[0]?.Condition).toEqual({
      StringEqualsIgnoreCase: { 'ses:FromAddress': 'site@example.net' },
    });
  });

  it('prefers the context over MAIL_FROM', () => {
    process.env.MAIL_FROM = 'Site <site@example.net>';
    const { resources } = synth({ context: { mailFrom: 'ctx@example.com' } });
    expect(environmentOf(resources, 'auth').MAIL_FROM).toBe('ctx@example.com');
  });

  it('refuses to synthesise (so to deploy) without a sender, unless mail is stated off', () => {
    expect(() => synth({ context: { mailFrom: '' } })).toThrow(/No sender configured/);

    const off = synth({ context: { mailFrom: '', mail: 'off' } });
    expect(environmentOf(off.resources, 'auth').MAIL_FROM).toBe(PLACEHOLDER_MAIL_FROM);
    Annotations.fromStack(off.stack).hasWarning('/Tunesmith/Mail', Match.stringLikeRegexp('Mail is off'));
  });
});

describe('mail handling', () => {
  it('sends through a configuration set that suppresses bounces and complaints, named to the auth function', () => {
    const { resources } = synth();
    const sets = ofType(resources, 'AWS::SES::ConfigurationSet');
    expect(sets).toHaveLength(1);
    const set = sets[0] as { Properties: Record<string, unknown> };
    expect(set.Properties.SuppressionOptions).toEqual({ SuppressedReasons: ['BOUNCE', 'COMPLAINT'] });
    expect(set.Properties.ReputationOptions).toEqual({ ReputationMetricsEnabled: true });
    expect(environmentOf(resources, 'auth').MAIL_CONFIGURATION_SET).toBeDefined();
    const resourcesOfGrant = sesGrantOf(resources, 'auth').flatMap((s) => JSON.stringify(s.Resource));
    expect(resourcesOfGrant.join(' ')).toContain('configuration-set/');
  });
});
