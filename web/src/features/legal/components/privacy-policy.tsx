import { AUDIT_RETENTION_DAYS, TABLE_RECOVERY_DAYS } from '@tunesmith/shared/data-retention';
import { site } from '@/lib/site';
import { LegalPage } from './legal-page';

export function PrivacyPolicy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 28, 2026">
      <p>
        This policy explains what information Tunesmith collects when you use our website and music generation
        service, why we collect it, and the choices you have. We collect only what we need to run the service.
      </p>

      <h2>Information we collect</h2>
      <ul>
        <li>
          <strong>Account details:</strong> your first and last name, email address and a password. Passwords
          are handled by our identity provider and are never stored by us in readable form.
        </li>
        <li>
          <strong>What you create:</strong> the genre tags, lyrics, titles and durations you enter, audio
          files you upload, and the tracks generated for you, along with each track's visibility setting.
        </li>
        <li>
          <strong>Subscription details:</strong> your plan, billing cycle and subscription status. Payments
          are processed by Stripe; we never see or store your full card number.
        </li>
        <li>
          <strong>Usage information:</strong> how many tracks you have generated in the current week, and
          technical logs (such as request times and errors) that keep the service secure and reliable.
        </li>
      </ul>

      <h2>How we use your information</h2>
      <ul>
        <li>To create your tracks, store them in your library and play them back to you.</li>
        <li>To show the tracks you mark as public in the community gallery and at their share links.</li>
        <li>To manage your account, apply your plan's weekly quota and process subscription payments.</li>
        <li>To send account emails, such as email verification and password reset links.</li>
        <li>To prevent abuse, fix problems and improve the service.</li>
      </ul>
      <p>We do not sell your personal information and we do not use it for advertising.</p>

      <h2>Who we share it with</h2>
      <p>
        We share information only with the providers that run parts of the service for us: our cloud hosting
        provider, the AI music provider that processes your prompts and uploaded audio to generate tracks,
        Stripe for payments, and our email delivery provider. Each receives only what it needs for its task.
        Public tracks can be seen by anyone with the link and in the gallery; private tracks are visible only
        to you.
      </p>

      <h2>Cookies</h2>
      <p>
        We use essential cookies to keep you signed in. They are not readable by scripts on the page and are
        not used for tracking or advertising. We do not use third-party analytics or advertising cookies.
      </p>

      <h2>How long we keep it</h2>
      <p>
        We keep your account and tracks for as long as your account exists. When you delete a track it is
        removed permanently. When you close your account we delete your personal information and tracks,
        except records we must keep by law, such as billing records. A record that the account was closed,
        with its email address, stays in our administrators' audit trail for {AUDIT_RETENTION_DAYS} days.
      </p>
      <p>
        When you delete a track or your account, its audio files (the track's audio, audio you uploaded for
        it, and your exports) are deleted from our storage at once, and we keep no earlier copies of them. Our
        database is backed up continuously so that it can be restored after a failure, and these backups reach
        back {TABLE_RECOVERY_DAYS} days: the details of a deleted track or account, such as its title, lyrics,
        name and email address, stay in them for up to {TABLE_RECOVERY_DAYS} days and are then gone for good.
      </p>

      <h2>Security</h2>
      <p>
        Data is encrypted in transit and at rest. Access to private tracks is checked on every request, and
        staff access is limited to what is needed to run and support the service.
      </p>

      <h2>Your rights</h2>
      <p>
        You can view and update your details on your profile page, and you may ask us for a copy of your
        information, or for its correction or deletion, by emailing{' '}
        <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>. We answer within 30 days.
      </p>

      <h2>Children</h2>
      <p>
        Tunesmith is not intended for children under 13, and we do not knowingly collect their information.
      </p>

      <h2>Changes to this policy</h2>
      <p>
        If we change this policy we will update the date above, and for significant changes we will let you
        know by email or on the site before they take effect.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about your privacy? Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>.
      </p>
    </LegalPage>
  );
}
