import { type ReactNode, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Tabs } from '@/components/ui/tabs';
import { AudioToMusicForm } from './audio-to-music-form';
import { TextToMusicForm } from './text-to-music-form';

type CreateTab = 'text' | 'audio' | 'library';

export interface CreatePageProps {
  /**
   * The My Library tab's content. The library is its own feature, so the route
   * composes it in; `createFirst` goes back to the Text to Music tab.
   */
  library?: (actions: { createFirst: () => void }) => ReactNode;
}

/**
 * The signed-in home: create from text or from an uploaded song, and see your
 * tracks; the tab lives in the page, not the route. A tab is mounted on its
 * first visit and then kept, so a running generation and a half-filled form
 * survive a look at the library.
 */
export function CreatePage({ library }: CreatePageProps) {
  const [tab, setTab] = useState<CreateTab>('text');
  const [visited, setVisited] = useState<ReadonlySet<CreateTab>>(() => new Set(['text']));
  const select = (next: CreateTab) => {
    setTab(next);
    setVisited((seen) => (seen.has(next) ? seen : new Set([...seen, next])));
  };
  const createFirst = () => select('text');
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="mb-8 text-center">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">Create Music</h1>
        <p className="mt-2 text-zinc-300">
          Turn genre tags and lyrics, or a song of yours, into a track in 30-60 seconds.
        </p>
      </div>
      <Card className="p-4 sm:p-6">
        <Tabs
          label="Create"
          value={tab}
          onChange={select}
          keepMounted
          items={[
            {
              value: 'text',
              label: 'Text to Music',
              content: (
                <div className="mx-auto max-w-3xl">
                  <TextToMusicForm />
                </div>
              ),
            },
            {
              value: 'audio',
              label: 'Audio to Music',
              content: visited.has('audio') ? (
                <div className="mx-auto max-w-3xl">
                  <AudioToMusicForm />
                </div>
              ) : null,
            },
            {
              value: 'library',
              label: 'My Library',
              content: visited.has('library') && library ? library({ createFirst }) : null,
            },
          ]}
        />
      </Card>
    </div>
  );
}
