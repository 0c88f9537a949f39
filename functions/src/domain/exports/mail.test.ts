import { formatBytes } from '@tunesmith/shared/uploads';
import { describe, expect, it } from 'vitest';
import { exportReadyMail } from './mail';

describe('exportReadyMail', () => {
  it("writes the zip's size as the profile's Download button does, in the same units", () => {
    // 34.5 MiB: "34.5 MB" counted in 1024s, "36 MB" in the decimal units every screen uses.
    const size = 36_175_872;

    const mail = exportReadyMail({
      to: 'ada@example.test',
      link: 'https://site.example/exports/user-1/exp-1.zip',
      siteName: 'Tunesmith',
      tracks: 3,
      size,
      expiresAt: '2026-05-02T10:00:00.000Z',
    });

    expect(formatBytes(size)).toBe('36 MB');
    expect(mail.text).toContain('3 tracks in one zip file (36 MB)');
    expect(mail.html).toContain('(36 MB)');
    expect(mail.text).not.toContain('34.5');
  });
});
