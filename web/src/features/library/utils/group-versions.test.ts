import { describe, expect, it } from 'vitest';
import { makeTrack } from '@/testing/fixtures';
import { groupVersions, rootsOf } from './group-versions';

// Newest first, as the library lists them.
const root = makeTrack({ id: 'root', title: 'Root' });
const extended = makeTrack({ id: 'ext', parentId: 'root', edit: { kind: 'extend', seconds: 20, at: 'end' } });
const repaintOfExtended = makeTrack({
  id: 'rep',
  parentId: 'ext',
  edit: { kind: 'repaint', start: 1, end: 3, variance: 0.5 },
});
const orphan = makeTrack({ id: 'orphan', parentId: 'gone', edit: { kind: 'variation' } });
const single = makeTrack({ id: 'single' });
const library = [repaintOfExtended, single, orphan, extended, root];

describe('grouping versions', () => {
  it('finds the first track of each chain still in the library; a child of a deleted track is its own root', () => {
    const roots = rootsOf(library);

    expect(Object.fromEntries(roots)).toEqual({
      rep: 'root',
      single: 'single',
      orphan: 'orphan',
      ext: 'root',
      root: 'root',
    });
  });

  it('puts versions under their root, the group where its newest track is', () => {
    const groups = groupVersions(library, library);

    expect(groups.map((group) => [group.root.id, group.versions.map((v) => v.id), group.rootShown])).toEqual([
      ['root', ['rep', 'ext'], true],
      ['single', [], true],
      ['orphan', [], true],
    ]);
  });

  it('groups shown versions under a root the filters hide', () => {
    const groups = groupVersions([repaintOfExtended, single], library);

    expect(groups.map((group) => [group.root.id, group.versions.map((v) => v.id), group.rootShown])).toEqual([
      ['root', ['rep'], false],
      ['single', [], true],
    ]);
  });

  it('stops at a loop in bad data instead of running forever', () => {
    const a = makeTrack({ id: 'a', parentId: 'b' });
    const b = makeTrack({ id: 'b', parentId: 'a' });

    expect(Object.fromEntries(rootsOf([a, b]))).toEqual({ a: 'a', b: 'b' });
    expect(groupVersions([a, b], [a, b]).map((group) => [group.root.id, group.versions])).toEqual([
      ['a', []],
      ['b', []],
    ]);
  });
});
