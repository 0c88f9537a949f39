import { useState } from 'react';
import { Card } from '@/components/ui/card';
import { Tabs } from '@/components/ui/tabs';
import { TextToMusicForm } from './text-to-music-form';

type CreateTab = 'text' | 'audio' | 'library';

function ComingNext({ title, children }: { title: string; children: string }) {
  return (
    <div className="rounded-xl border border-dashed border-white/15 p-8 text-center">
      <h2 className="text-lg font-semibold text-white">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-zinc-300">{children}</p>
    </div>
  );
}

/** The signed-in home: create from text (or, next, from audio) and see your tracks; the tab lives in the page. */
export function CreatePage() {
  const [tab, setTab] = useState<CreateTab>('text');
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="mb-8 text-center">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">Create Music</h1>
        <p className="mt-2 text-zinc-300">Turn genre tags and lyrics into a track in 30-60 seconds.</p>
      </div>
      <Card className="p-4 sm:p-6">
        <Tabs
          label="Create"
          value={tab}
          onChange={setTab}
          items={[
            { value: 'text', label: 'Text to Music', content: <TextToMusicForm /> },
            {
              value: 'audio',
              label: 'Audio to Music',
              content: (
                <ComingNext title="Audio to Music is on its way">
                  Restyling an uploaded song arrives together with the upload dialog. Until then, create
                  tracks from text in the Text to Music tab.
                </ComingNext>
              ),
            },
            {
              value: 'library',
              label: 'My Library',
              content: (
                <ComingNext title="Your library is on its way">
                  The list of your tracks arrives with the library. Every track you generate now is already
                  saved to your account and will appear there.
                </ComingNext>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
