import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { BackButton } from './back-button';

/** The frame of a static legal page: back button, title, date and readable text. */
export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackButton />
      <Card className="mt-4 p-6 sm:p-10">
        <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-zinc-400">Last updated: {updated}</p>
        <div className="mt-8 grid gap-4 leading-relaxed text-zinc-300 [&_a]:text-fuchsia-300 [&_a]:underline [&_a]:underline-offset-4 [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-white [&_li]:ml-5 [&_li]:list-disc [&_strong]:text-zinc-100 [&_ul]:grid [&_ul]:gap-2">
          {children}
        </div>
      </Card>
    </div>
  );
}
