import { formatBytes } from '@tunesmith/shared/uploads';
import { layout } from '../accounts/mail';
import type { MailMessage } from '../accounts/ports';

/** When a link ends, in words every reader understands (UTC). */
const formatExpiry = (iso: string): string =>
  `${new Date(iso)
    .toUTCString()
    .replace(/:\d\d GMT$/, '')
    .replace(/ GMT$/, '')} UTC`;

/** The mail with the link to a ready export. */
export function exportReadyMail(input: {
  to: string;
  link: string;
  siteName: string;
  tracks: number;
  size: number;
  expiresAt: string;
}): MailMessage {
  const tracks = input.tracks === 1 ? '1 track' : `${input.tracks} tracks`;
  const body = `Your music is ready to download: ${tracks} in one zip file (${formatBytes(input.size)}), each with its lyrics, its provenance record and its license.`;
  const note = `This link works until ${formatExpiry(input.expiresAt)}; after that, start a new export from your profile. The file is deleted after 7 days.`;
  return {
    to: input.to,
    subject: `Your ${input.siteName} music is ready to download`,
    text: `${body}\n\nDownload your music: ${input.link}\n\n${note}\n`,
    html: layout(
      input.siteName,
      'Your music is ready',
      body,
      { label: 'Download Music', url: input.link },
      note,
    ),
  };
}

/** The short mail when an export could not be made. */
export function exportFailedMail(input: { to: string; siteOrigin: string; siteName: string }): MailMessage {
  const body =
    'We could not prepare the export of your music. Nothing was lost: please try again from your profile.';
  const note = 'If it fails again, contact us and we will help.';
  const link = `${input.siteOrigin}/profile`;
  return {
    to: input.to,
    subject: `Your ${input.siteName} export failed`,
    text: `${body}\n\nYour profile: ${link}\n\n${note}\n`,
    html: layout(input.siteName, 'The export failed', body, { label: 'Open Profile', url: link }, note),
  };
}
