import { describe, expect, it } from 'vitest';
import { mailSafeName, maskEmail, verificationMail } from './mail';

describe('names in mail', () => {
  it('cannot become a link or an address in the inbox', () => {
    expect(mailSafeName('https://evil.example/login')).toBe('httpsevilexamplelogin');
    expect(mailSafeName('Visit www.evil.com now')).toBe('Visit wwwevilcom now');
    expect(mailSafeName('me@evil.com')).toBe('meevilcom');
    expect(mailSafeName("Zoë O'Brien-Søren")).toBe("Zoë O'Brien-Søren");
    expect(mailSafeName('x'.repeat(100))).toHaveLength(40);
    const mail = verificationMail({
      to: 'a@example.com',
      firstName: 'http://evil.example',
      link: 'https://tunesmith.test/verify-email/t',
      siteName: 'Tunesmith',
    });
    expect(mail.text).not.toContain('http://evil.example');
    expect(mail.text.startsWith('Hi httpevilexample,')).toBe(true);
    expect(verificationMail({ to: 'a@x.y', firstName: '://', link: 'l', siteName: 'S' }).text).toMatch(
      /^Hi there,/,
    );
  });

  it('masks an address enough to recognise it, not to copy it', () => {
    expect(maskEmail('ada@example.com')).toBe('a**@example.com');
    expect(maskEmail('grace.hopper@navy.mil')).toBe('g***********@navy.mil');
  });
});
