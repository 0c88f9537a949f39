import { Card } from '@/components/ui/card';
import { ContactForm } from '@/features/contact/components/contact-form';
import { ContactInfo } from '@/features/contact/components/contact-info';
import { Faq } from '@/features/contact/components/faq';
import { pageTitle } from '@/lib/page-title';

export default function ContactRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
      <title>{pageTitle('Contact')}</title>
      <header className="mx-auto mb-12 max-w-2xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">Contact Us</h1>
        <p className="mt-4 text-lg text-zinc-300">
          Questions about your account, billing or a track? Send us a message and we'll get back to you.
        </p>
      </header>
      <div className="grid gap-8 lg:grid-cols-5">
        <Card className="p-6 sm:p-8 lg:col-span-3">
          <h2 className="mb-6 text-xl font-semibold text-white">Send us a message</h2>
          <ContactForm />
        </Card>
        <div className="grid content-start gap-8 lg:col-span-2">
          <ContactInfo />
          <Faq />
        </div>
      </div>
    </div>
  );
}
