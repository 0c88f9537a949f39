/**
 * The site's content security policy: one policy for CloudFront's response headers
 * (infra/lib/web.ts) and the local static server (local/src/static.ts), so what runs
 * locally is refused or allowed exactly as on AWS.
 *
 * Scripts come only from the site. Styles may also be inline: wavesurfer.js draws the
 * waveform in a shadow root styled by a `<style>` element of its own, which a policy
 * without 'unsafe-inline' refuses (the waveform then stacks its canvases and the
 * console reports the refusal). `connectSources` are the storage origins the page
 * uploads to directly.
 */
export function contentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Audio plays from this origin (/tracks/*, signed links).
    "media-src 'self' blob:",
    ['connect-src', "'self'", ...connectSources].join(' '),
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
