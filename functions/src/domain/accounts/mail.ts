import type { MailMessage } from './ports';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The one layout of every mail we send: the site's name, a heading, a paragraph, one button and a note. */
export function layout(
  siteName: string,
  heading: string,
  body: string,
  action: { label: string; url: string },
  note: string,
) {
  return `<!doctype html><html><body style="margin:0;background:#0b0b12;font-family:Arial,Helvetica,sans-serif;color:#e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#16161f;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:bold;color:#a78bfa">${escapeHtml(siteName)}</td></tr>
<tr><td style="padding-top:16px;font-size:22px;font-weight:bold;color:#ffffff">${escapeHtml(heading)}</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:1.6">${escapeHtml(body)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#7c3aed;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:8px;font-weight:bold">${escapeHtml(action.label)}</a></td></tr>
<tr><td style="font-size:13px;color:#9ca3af;line-height:1.6">${escapeHtml(note)}<br>If the button does not work, open this link:<br><a href="${escapeHtml(action.url)}" style="color:#a78bfa;word-break:break-all">${escapeHtml(action.url)}</a></td></tr>
</table></td></tr></table></body></html>`;
}

/**
 * A person's name as mail may show it: letters, marks, digits, spaces,
 * apostrophes and hyphens only, at most 40 characters, so a name shaped like
 * a link or an address cannot become one in someone's inbox.
 */
export function mailSafeName(name: string): string {
  return name
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N} '-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40)
    .trim();
}

/** The mail that confirms a new account's address. */
export function verificationMail(input: {
  to: string;
  firstName: string;
  link: string;
  siteName: string;
}): MailMessage {
  const greeting = `Hi ${mailSafeName(input.firstName) || 'there'},`;
  const body = `${greeting} thanks for signing up for ${input.siteName}. Please confirm your email address to start creating music.`;
  const note = 'This link expires in 24 hours. If you did not create an account, you can ignore this email.';
  return {
    to: input.to,
    subject: `Verify your email for ${input.siteName}`,
    text: `${body}\n\nVerify your email: ${input.link}\n\n${note}\n`,
    html: layout(input.siteName, 'Verify your email', body, { label: 'Verify Email', url: input.link }, note),
  };
}

/** The mail with a password reset link. */
export function passwordResetMail(input: { to: string; link: string; siteName: string }): MailMessage {
  const body = `We received a request to reset the password of your ${input.siteName} account. Choose a new one with the link below.`;
  const note =
    'This link expires in 1 hour and works once. If you did not ask for it, you can ignore this email.';
  return {
    to: input.to,
    subject: `Reset your ${input.siteName} password`,
    text: `${body}\n\nReset your password: ${input.link}\n\n${note}\n`,
    html: layout(
      input.siteName,
      'Reset your password',
      body,
      { label: 'Reset Password', url: input.link },
      note,
    ),
  };
}

/** The mail to a new address that makes an email change happen when followed. */
export function emailChangeMail(input: { to: string; link: string; siteName: string }): MailMessage {
  const body = `Someone asked to make this the sign-in address of a ${input.siteName} account. Confirm it with the link below; the change happens only then.`;
  const note =
    'This link expires in 24 hours and works once. If you did not ask for it, you can ignore this email.';
  return {
    to: input.to,
    subject: `Confirm your new email for ${input.siteName}`,
    text: `${body}\n\nConfirm your new email: ${input.link}\n\n${note}\n`,
    html: layout(
      input.siteName,
      'Confirm your new email',
      body,
      { label: 'Confirm Email', url: input.link },
      note,
    ),
  };
}

/** The notice to the current address that a change to another was asked for. */
export function emailChangeNoticeMail(input: {
  to: string;
  newEmail: string;
  siteOrigin: string;
  siteName: string;
}): MailMessage {
  const body = `A change of your sign-in email to ${maskEmail(input.newEmail)} was requested. It happens only if the link we sent to that address is followed.`;
  const note =
    'If this was not you, change your password now: someone may know it. Your email stays as it is until the new address is confirmed.';
  const link = `${input.siteOrigin}/profile`;
  return {
    to: input.to,
    subject: `Your ${input.siteName} email change request`,
    text: `${body}\n\n${note}\n\nYour profile: ${link}\n`,
    html: layout(input.siteName, 'Email change requested', body, { label: 'Open Profile', url: link }, note),
  };
}

/** `ada@example.com` → `a**@example.com`: enough to recognise, not to copy. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(2, local.length - 1))}@${domain}`;
}

/**
 * The confirmation that an account was deleted, as its owner asked: what is
 * gone, what happened to a subscription, and that the address is free again.
 */
export function accountDeletedMail(input: {
  to: string;
  firstName: string;
  /** A running subscription was cancelled at once by the deletion. */
  subscriptionCancelled: boolean;
  siteOrigin: string;
  siteName: string;
}): MailMessage {
  const greeting = `Hi ${mailSafeName(input.firstName) || 'there'},`;
  const subscription = input.subscriptionCancelled
    ? 'Your subscription was cancelled at once: nothing more will be charged, and the rest of the period you had paid for ended with it and was not refunded.'
    : 'You had no running subscription, so nothing was cancelled and nothing more will be charged.';
  const body = `${greeting} your ${input.siteName} account has been deleted, as you asked. Your tracks and their audio, your uploads, your exports and your profile are gone. ${subscription}`;
  const note =
    'You can sign up again with this address at any time. If you did not ask for this, tell us on the contact page of the site.';
  const link = input.siteOrigin;
  return {
    to: input.to,
    subject: `Your ${input.siteName} account has been deleted`,
    text: `${body}\n\n${note}\n\n${input.siteName}: ${link}\n`,
    html: layout(
      input.siteName,
      'Your account has been deleted',
      body,
      { label: `Visit ${input.siteName}`, url: link },
      note,
    ),
  };
}
