import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryCreators } from '../../testing/in-memory-creators';
import { type CreatorShareDeps, renderCreatorPage, rewriteAllCreatorPages } from './creator-share';
import { goPrivate, setPublicProfile } from './creators';

const shell =
  '<!doctype html><html><head><title>Tunesmith</title><meta name="description" content="Make music" /></head><body><div id="root"></div></body></html>';

function world() {
  const documents = new Map<string, string>();
  let template = shell;
  const share: CreatorShareDeps = {
    pages: {
      publish: async (handle, html) => void documents.set(handle.toLowerCase(), html),
      remove: async (handle) => void documents.delete(handle.toLowerCase()),
    },
    template: async () => template,
    site: { origin: 'https://tunesmith.test', name: async () => 'Tunesmith' },
  };
  const creators = inMemoryCreators();
  return {
    documents,
    creators,
    share,
    deps: { creators: creators.store, clock: fakeClock(), share },
    deploy: (next: string) => {
      template = next;
    },
  };
}

describe('creator page previews', () => {
  it('puts the profile in the shell head, escaped, replacing its title and description', () => {
    const html = renderCreatorPage(
      shell,
      { handle: 'ada', displayName: 'Ada <3', bio: 'Say "hi" & listen' },
      { origin: 'https://tunesmith.test', name: 'Tunesmith' },
    );
    expect(html).toContain('<title>Ada &lt;3 (@ada) | Tunesmith</title>');
    expect(html).toContain('<meta property="og:title" content="Ada &lt;3 (@ada)" />');
    expect(html).toContain('<meta property="og:description" content="Say &quot;hi&quot; &amp; listen" />');
    expect(html).toContain('<meta property="og:url" content="https://tunesmith.test/@ada" />');
    expect(html).not.toContain('Make music');
    expect(html).toContain('<div id="root"></div>');
  });

  it('is written for a public profile, moves with its handle and goes before the profile goes private', async () => {
    const { documents, deps } = world();
    await setPublicProfile(deps, 'u1', { handle: 'Ada', displayName: 'Ada' });
    expect([...documents.keys()]).toEqual(['ada']);
    await setPublicProfile(deps, 'u1', { handle: 'lovelace', displayName: 'Ada' });
    expect([...documents.keys()]).toEqual(['lovelace']);
    await goPrivate(deps, 'u1');
    expect(documents.size).toBe(0);
  });

  it('is not written for a hidden profile', async () => {
    const { documents, creators, deps } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    creators.hide('u1');
    documents.clear();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada again' });
    expect(documents.size).toBe(0);
  });

  it("is written again from a new shell for every profile still public; a stale or hidden handle's document goes", async () => {
    const { documents, creators, share, deps, deploy } = world();
    await setPublicProfile(deps, 'u1', { handle: 'Ada', displayName: 'Ada' });
    await setPublicProfile(deps, 'u2', { handle: 'ben', displayName: 'Ben' });
    await setPublicProfile(deps, 'u3', { handle: 'cy', displayName: 'Cy' });
    creators.hide('u2');
    // A document left behind by a handle nobody holds now.
    documents.set('gone', shell);
    deploy(
      shell.replace(
        '<div id="root"></div>',
        '<div id="root"></div><script src="/assets/index-new.js"></script>',
      ),
    );

    const listed = async () => [...documents.keys()];
    expect(await rewriteAllCreatorPages(share, creators.store, listed)).toEqual({ written: 2, removed: 2 });
    expect([...documents.keys()].sort()).toEqual(['ada', 'cy']);
    for (const html of documents.values()) expect(html).toContain('/assets/index-new.js');
  });

  it('leaves no document for a profile that goes private while the rewrite writes it', async () => {
    const { documents, creators, share, deps } = world();
    await setPublicProfile(deps, 'u1', { handle: 'ada', displayName: 'Ada' });
    // The profile goes private (its document removed first) just as the rewrite writes it.
    const racing: CreatorShareDeps = {
      ...share,
      pages: {
        ...share.pages,
        publish: async (handle, html) => {
          await share.pages.publish(handle, html);
          await goPrivate(deps, 'u1');
        },
      },
    };
    const listed = async () => [...documents.keys()];
    expect(await rewriteAllCreatorPages(racing, creators.store, listed)).toEqual({ written: 0, removed: 1 });
    expect(documents.size).toBe(0);
  });
});
