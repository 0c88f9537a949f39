import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { Icon } from './icon';

const markupOf = (icon: ReactElement) => render(icon).container.innerHTML;

describe('Icon', () => {
  it('draws a hidden 24x24 line icon, size-4 by default', () => {
    expect(markupOf(<Icon d="M6 6l12 12M18 6L6 18" />)).toBe(
      '<svg aria-hidden="true" viewBox="0 0 24 24" class="size-4" fill="none" stroke="currentColor" stroke-width="2"><path d="M6 6l12 12M18 6L6 18"></path></svg>',
    );
  });

  it('draws several paths in order, then other shapes, with the given size, stroke and rounding', () => {
    expect(
      markupOf(
        <Icon className="size-7" strokeWidth="2.5" round d={['M3 3l18 18', 'M12 7v5l3 2']}>
          <circle cx="12" cy="12" r="9" />
        </Icon>,
      ),
    ).toBe(
      '<svg aria-hidden="true" viewBox="0 0 24 24" class="size-7" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"><path d="M3 3l18 18"></path><path d="M12 7v5l3 2"></path><circle cx="12" cy="12" r="9"></circle></svg>',
    );
  });
});
