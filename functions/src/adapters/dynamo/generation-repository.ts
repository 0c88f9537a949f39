import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { loudnessSchema, provenanceInputSchema, trackLicenseSchema } from '@tunesmith/shared/ownership';
import { STEM_NAMES, STEM_SETS } from '@tunesmith/shared/stems';
import { trackAnalysisSchema, trackEditSchema, trackStatuses, visibilities } from '@tunesmith/shared/tracks';
import * as z from 'zod/mini';
import { keys, tableDesign } from '../../data/keys';
import { type Generation, type GenerationRepository, isGalleryVisible } from '../../domain/tracks/track';
import { decodeCursor, encodeCursor } from './client';

const stemsRecordSchema = z.object({
  set: z.enum(STEM_SETS),
  status: z.enum(['processing', 'ready', 'failed']),
  requestedAt: z.string(),
  attempt: z.int(),
  requestId: z.nullable(z.string()),
  model: z.string(),
  files: z.array(
    z.object({
      name: z.enum(STEM_NAMES['6']),
      wavUrl: z.string(),
      streamUrl: z.nullable(z.string()),
      peaksUrl: z.nullable(z.string()),
      // Null while the stem plays from the provider's WAV and its download is prepared (decision 048).
      sha256: z.nullable(z.string()),
      loudness: z.nullable(loudnessSchema),
    }),
  ),
  zipUrl: z.optional(z.nullable(z.string())),
  updatedAt: z.string(),
});

const generationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  type: z.string(),
  title: z.nullable(z.string()),
  tags: z.string(),
  lyrics: z.nullable(z.string()),
  duration: z.nullable(z.number()),
  status: z.enum(trackStatuses),
  visibility: z.enum(visibilities),
  showInGallery: z.boolean(),
  inputAudioUrl: z.nullable(z.string()),
  audioUrl: z.nullable(z.string()),
  // Absent on tracks from before the compressed copy.
  streamAudioUrl: z.optional(z.nullable(z.string())),
  // Absent on tracks from before the waveform's peaks (npm run backfill -- peaks makes them).
  peaksUrl: z.optional(z.nullable(z.string())),
  seed: z.nullable(z.number()),
  falRequestId: z.nullable(z.string()),
  // The studio's fields; absent on tracks from before it.
  instrumental: z.optional(z.boolean()),
  parentId: z.optional(z.nullable(z.string())),
  edit: z.optional(z.nullable(trackEditSchema)),
  // Ownership's fields (provenance, the file's hash, loudness); absent on tracks from before them.
  origin: z.optional(
    z.nullable(
      z.object({
        provider: z.string(),
        model: z.string(),
        endpoint: z.string(),
        // The model's id and terms (decision 051); absent on records from before the choice.
        modelId: z.optional(z.string()),
        modelTerms: z.optional(z.string()),
        parameters: z.record(z.string(), z.unknown()),
        inputs: z.array(provenanceInputSchema),
        plan: z.string(),
        license: trackLicenseSchema,
      }),
    ),
  ),
  audioSha256: z.optional(z.nullable(z.string())),
  // Set while the download is prepared (the track already plays); absent before and after.
  downloadPending: z.optional(z.boolean()),
  loudness: z.optional(z.nullable(loudnessSchema)),
  // Tempo and key: asked for at creation, measured at completion; absent on tracks from before them.
  tempo: z.optional(z.nullable(z.number())),
  musicalKey: z.optional(z.nullable(z.string())),
  analysis: z.optional(z.nullable(trackAnalysisSchema)),
  // The model it was made with and the quota units its start reserved (decision 051); absent before the choice.
  model: z.optional(z.nullable(z.string())),
  quotaUnits: z.optional(z.int()),
  // Stems per set asked for (decision 044); absent when none were.
  stems: z.optional(
    z.nullable(z.object({ '4': z.optional(stemsRecordSchema), '6': z.optional(stemsRecordSchema) })),
  ),
  // The community's fields (decision 056); absent on tracks from before them.
  remixable: z.optional(z.boolean()),
  remixOf: z.optional(
    z.nullable(z.object({ trackId: z.string(), userId: z.string(), sha256: z.nullable(z.string()) })),
  ),
  hidden: z.optional(z.boolean()),
  // Counters moved with ADD by likes and plays, read here and never written back (GENERATION_COUNTERS).
  likes: z.optional(z.number()),
  plays: z.optional(z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * Attributes that likes and plays move with `ADD` (decision 056). They are read with the track but never
 * written from it: a write of the whole track would put back a count another request had just moved.
 */
export const GENERATION_COUNTERS = ['likes', 'plays'] as const;

/** The item for a generation; gallery keys only while it belongs in the gallery. */
export function generationToItem(g: Generation): Record<string, unknown> {
  return {
    ...keys.generation(g.id),
    ...keys.generationOwner(g.userId, g.createdAt, g.id),
    ...keys.generationKind(g.createdAt, g.id),
    ...(isGalleryVisible(g)
      ? { ...keys.gallery(g.createdAt, g.id), ...keys.creatorTrack(g.userId, g.createdAt) }
      : {}),
    entity: 'generation',
    ...withoutCounters(g),
    // What the admin area's search looks in: title and tags, lowercased.
    searchText: `${g.title ?? ''} ${g.tags}`.toLowerCase(),
  };
}

function withoutCounters(g: Generation): Omit<Generation, (typeof GENERATION_COUNTERS)[number]> {
  const { likes: _likes, plays: _plays, ...rest } = g;
  return rest;
}

export function generationFromItem(item: Record<string, unknown>): Generation {
  return generationSchema.parse(item);
}

export function dynamoGenerationRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): GenerationRepository {
  const gallery = tableDesign.indexes.gallery;
  return {
    async listGallery(limit, cursor) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: gallery.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': gallery.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.galleryPartition },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: decodeCursor(cursor),
        }),
      );
      return { items: (out.Items ?? []).map(generationFromItem), cursor: encodeCursor(out.LastEvaluatedKey) };
    },
    async put(generation) {
      await client.send(new PutCommand({ TableName: tableName, Item: generationToItem(generation) }));
    },
  };
}
