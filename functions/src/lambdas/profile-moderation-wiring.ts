import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoCreatorStore } from '../adapters/dynamo/creator-store';
import { dynamoProfileLookup } from '../adapters/dynamo/report-store';
import { publishCreatorPage } from '../domain/community/creator-share';
import type { ProfileLookup } from '../domain/community/reports';
import { creatorShareFromEnv } from './creator-share-wiring';
import { ownerPlaylistPreviews } from './playlist-share-wiring';

/**
 * Profiles as moderation hides and restores them (decision 061): a hidden profile's link preview
 * (decision 059) is withdrawn with it, and written again when it is restored; their playlists'
 * previews name them again only then.
 */
export function moderatedProfiles(client: DynamoDBDocumentClient, tableName: string): ProfileLookup {
  const lookup = dynamoProfileLookup(client, tableName);
  const creators = dynamoCreatorStore(client, tableName);
  return {
    byHandle: lookup.byHandle,
    async setHidden(userId, hidden) {
      const changed = await lookup.setHidden(userId, hidden);
      const share = changed ? creatorShareFromEnv() : undefined;
      const profile = share ? await creators.profile(userId) : undefined;
      if (share && profile?.handle) {
        if (hidden) await share.pages.remove(profile.handle);
        else await publishCreatorPage(share, profile);
        // Their playlists' previews stop (or start again) naming them.
        await ownerPlaylistPreviews(userId);
      }
      return changed;
    },
  };
}
