import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_WINDOW_WIDTH, setWindowWidth } from '@/testing/viewport';
import { Button } from './button';
import { type ResponsiveColumn, ResponsiveTable } from './responsive-table';

interface Person {
  id: string;
  name: string;
  email: string;
  joined: string;
}

const people: Person[] = [
  { id: 'p1', name: 'Ada Lovelace', email: 'ada@example.com', joined: 'Mar 15, 2026' },
  { id: 'p2', name: 'Grace Hopper', email: 'grace@example.com', joined: 'Apr 2, 2026' },
];

function renderPeople(onEdit = vi.fn()) {
  const columns: ResponsiveColumn<Person>[] = [
    { header: 'Person', place: 'title', userText: true, cell: (person) => person.name },
    { header: 'Email', cell: (person) => person.email },
    { header: 'Joined', cell: (person) => person.joined },
    {
      header: 'Actions',
      place: 'actions',
      cell: (person) => (
        <Button size="sm" onClick={() => onEdit(person.id)} aria-label={`Edit ${person.name}`}>
          Edit
        </Button>
      ),
    },
  ];
  render(
    <ResponsiveTable
      caption="People"
      columns={columns}
      rows={people}
      rowKey={(person) => person.id}
      rowLabel={(person) => person.name}
    />,
  );
  return onEdit;
}

afterEach(() => setWindowWidth(DEFAULT_WINDOW_WIDTH));

describe('responsive table', () => {
  it('is a table with a column per field and a row per record on a wide screen', () => {
    renderPeople();

    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Person', 'Email', 'Joined', 'Actions']);
    const ada = within(screen.getByRole('row', { name: /Ada Lovelace/ }));
    expect(ada.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      'Mar 15, 2026',
      'Edit',
    ]);
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('on a phone, shows each record as a card with every field labelled and its actions', async () => {
    setWindowWidth(390);
    const onEdit = renderPeople();

    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'People' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const grace = within(screen.getByRole('article', { name: 'Grace Hopper' }));
    expect(grace.getByText('Grace Hopper')).toBeDefined();
    const fields = grace
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextSibling?.textContent]);
    expect(fields).toEqual([
      ['Email', 'grace@example.com'],
      ['Joined', 'Apr 2, 2026'],
    ]);
    await userEvent.click(grace.getByRole('button', { name: 'Edit Grace Hopper' }));
    expect(onEdit).toHaveBeenCalledWith('p2');
  });

  it('changes between the two when the window is resized across 768 px', () => {
    setWindowWidth(390);
    renderPeople();
    expect(screen.getAllByRole('article')).toHaveLength(2);

    setWindowWidth(768);
    expect(screen.getByRole('table')).toBeDefined();
    expect(screen.queryByRole('article')).toBeNull();

    setWindowWidth(767);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });
});
