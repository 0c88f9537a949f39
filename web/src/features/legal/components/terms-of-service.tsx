import { Link } from 'react-router';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { site } from '@/lib/site';
import { LegalPage } from './legal-page';

const planTerms = [
  {
    name: 'Free',
    price: 'Free',
    quota: '5 songs a week',
    extras: 'Public sharing only; no downloads',
  },
  {
    name: 'Basic',
    price: '$2.08/week, $9/month or $90/year',
    quota: '30 songs a week',
    extras: 'Private or public tracks; downloads',
  },
  {
    name: 'Premium',
    price: '$4.39/week, $19/month or $190/year',
    quota: '100 songs a week',
    extras: 'Priority generation and a commercial license; private or public tracks; downloads',
  },
] as const;

export function TermsOfService() {
  return (
    <LegalPage title="Terms of Service" updated="January 1, 2024">
      <p>
        These terms govern your use of Tunesmith, our website and AI music generation service. By creating an
        account or using the service you agree to them. If you do not agree, please do not use Tunesmith.
      </p>

      <h2>Your account</h2>
      <p>
        You must give accurate details when you sign up and verify your email address before signing in. Keep
        your password secret; you are responsible for activity on your account. You must be at least 13 years
        old to use the service.
      </p>

      <h2>Plans, prices and quotas</h2>
      <p>Each plan includes a number of songs you can generate per week:</p>
      <ScrollRegion label="Plans, prices and weekly quotas">
        <table className="w-full min-w-lg border-collapse text-left text-sm">
          <caption className="sr-only">Plans, prices and weekly quotas</caption>
          <thead>
            <tr className="border-b border-white/15 text-zinc-100">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Plan
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Price
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Quota
              </th>
              <th scope="col" className="py-2 font-semibold">
                Includes
              </th>
            </tr>
          </thead>
          <tbody>
            {planTerms.map((plan) => (
              <tr key={plan.name} className="border-b border-white/10 align-top">
                <th scope="row" className="py-2 pr-4 font-medium text-zinc-100">
                  {plan.name}
                </th>
                <td className="py-2 pr-4">{plan.price}</td>
                <td className="py-2 pr-4">{plan.quota}</td>
                <td className="py-2">{plan.extras}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p>
        Your quota counts the songs you start in the current weekly window and resets when a new window
        begins; unused songs do not carry over. A generation that fails is not counted. Current prices are
        always shown on the <Link to="/pricing">Pricing</Link> page; prices are in US dollars and may exclude
        applicable taxes.
      </p>

      <h2>Billing and cancellation</h2>
      <p>
        Paid plans are billed in advance through Stripe each week, month or year, depending on the cycle you
        choose, and renew automatically until cancelled. You can cancel at any time from your profile;
        cancellation takes effect at the end of the current billing period and you keep your plan until then.
        Except where the law requires otherwise, payments are not refunded for partial periods. If we change a
        plan's price we will tell you before your next renewal.
      </p>

      <h2>Your content and your music</h2>
      <ul>
        <li>
          You keep the rights you have in the tags, lyrics, titles and audio you provide. You must only upload
          audio and lyrics you own or have permission to use.
        </li>
        <li>
          You give us permission to store and process your content to provide the service, and to display
          tracks you make public in the community gallery and at their share links until you make them private
          or delete them.
        </li>
        <li>
          Subject to these terms, you may use tracks you create for personal, non-commercial purposes on any
          plan. Commercial use, such as in advertising, products or paid content, requires an active Premium
          plan at the time the track was created (see <a href="#license">License of your tracks</a>).
        </li>
        <li>
          AI-generated music can resemble existing works. You are responsible for how you use your tracks,
          including checking that your use does not infringe anyone else's rights.
        </li>
      </ul>

      <h2 id="license" className="scroll-mt-24">
        License of your tracks
      </h2>
      <p>
        Every track gets its license when it is made, from the plan in force for your account at that moment.
        The license is recorded with the track and does not change afterwards: upgrading, downgrading or
        cancelling later neither widens nor narrows the license of tracks you have already made.
      </p>
      <ul>
        <li>
          <strong>Free and Basic:</strong> personal, non-commercial use only.
        </li>
        <li>
          <strong>Premium:</strong> commercial use is allowed, for example in advertising, products and paid
          content.
        </li>
        <li>
          Tracks made before licenses were recorded with each track have the personal, non-commercial license.
        </li>
      </ul>
      <p>
        Each track's page shows its license under "About this track", together with a record of how the track
        was made: that it was generated by AI, the model, and the plan it was made on. The download dialog
        shows the license before you download a track.
      </p>

      <h2>Acceptable use</h2>
      <p>
        Do not use Tunesmith to create or share content that is unlawful, infringing, hateful or harassing, or
        that sexualises minors; to impersonate real artists in a misleading way; or to interfere with the
        service, for example by automated scraping or attempts to get around quotas. We may remove content or
        suspend accounts that break these rules.
      </p>

      <h2>Availability and changes</h2>
      <p>
        We work to keep Tunesmith available and fast, but the service is provided "as is" without warranties
        of any kind, and generated results vary. We may change or discontinue features; if we make material
        changes to these terms we will tell you in advance, and continued use means you accept them.
      </p>

      <h2>Limitation of liability</h2>
      <p>
        To the extent the law allows, Tunesmith is not liable for indirect or consequential losses, and our
        total liability for any claim is limited to the amount you paid us in the three months before the
        claim arose.
      </p>

      <h2>Termination</h2>
      <p>
        You may stop using Tunesmith and delete your account at any time. We may suspend or close accounts
        that break these terms. Sections about content rights, liability and payment obligations survive
        termination.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about these terms? Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>.
      </p>
    </LegalPage>
  );
}
