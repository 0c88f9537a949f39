import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { CreatePlaylistRequest } from '@tunesmith/shared/community';
import { useRef, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useAddTrackToPlaylist, useCreatePlaylist, useMyPlaylists } from '../api/playlists';
import { playlistText } from '../messages';
import { PlaylistFormDialog } from './playlist-form-dialog';

export interface AddToPlaylistProps {
  /** A finished track the signed-in user may see. */
  track: { id: string; title: string };
  /** The id of the track's title, so the button says which track it adds. */
  describedBy?: string;
}

const itemClasses =
  'cursor-pointer rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-violet-600 data-[highlighted]:text-white data-[disabled]:cursor-default data-[disabled]:text-zinc-400';

/**
 * A track's Add to Playlist menu (Radix Dropdown Menu): the user's playlists, newest first, and
 * New Playlist…, which makes one (a dialog) with the track in it.
 */
export function AddToPlaylistMenu({ track, describedBy }: AddToPlaylistProps) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const playlists = useMyPlaylists(open);
  const add = useAddTrackToPlaylist();
  const create = useCreatePlaylist();
  const handleUnauthorized = useUnauthorizedHandler();

  const addTo = async (playlist: { id: string; title: string }) => {
    try {
      const { added } = await add.mutateAsync({ id: playlist.id, trackId: track.id });
      toast({
        title: playlistText.addedTitle,
        description: added
          ? playlistText.added(track.title, playlist.title)
          : playlistText.alreadyThere(playlist.title),
      });
    } catch (error) {
      if (handleUnauthorized(error)) return;
      toast({
        title: playlistText.addFailed,
        description: refusalMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };

  const createWithTrack = async (input: CreatePlaylistRequest) => {
    const made = await create.mutateAsync(input);
    await addTo(made);
  };

  return (
    <>
      <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger
          ref={trigger}
          className={buttonClasses('outline', 'sm')}
          aria-describedby={describedBy}
        >
          {playlistText.addToPlaylist}
          <span aria-hidden="true">▾</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-40 max-h-80 min-w-56 overflow-y-auto rounded-xl border border-white/10 bg-zinc-900 p-1 text-sm text-zinc-100 shadow-xl shadow-black/50"
          >
            {playlists.isPending ? (
              <DropdownMenu.Item disabled className={itemClasses}>
                Loading your playlists…
              </DropdownMenu.Item>
            ) : playlists.isError ? (
              <DropdownMenu.Item disabled className={itemClasses}>
                {playlistText.loadFailed}
              </DropdownMenu.Item>
            ) : (
              playlists.data.map((playlist) => (
                <DropdownMenu.Item
                  key={playlist.id}
                  onSelect={() => void addTo(playlist)}
                  className={itemClasses}
                >
                  {playlist.title}
                </DropdownMenu.Item>
              ))
            )}
            <DropdownMenu.Separator className="my-1 h-px bg-white/10" />
            <DropdownMenu.Item onSelect={() => setCreating(true)} className={itemClasses}>
              {playlistText.newPlaylist}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <PlaylistFormDialog
        open={creating}
        onClose={() => {
          setCreating(false);
          // The menu item that opened the dialog is gone: the menu's button keeps the reader's place.
          window.setTimeout(() => trigger.current?.focus(), 0);
        }}
        onSubmit={createWithTrack}
      />
    </>
  );
}
