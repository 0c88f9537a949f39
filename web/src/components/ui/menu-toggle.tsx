import { Button } from './button';
import { Icon } from './icon';

export interface MenuToggleProps {
  open: boolean;
  /** Id of the menu this button shows and hides. */
  controls: string;
  onToggle: () => void;
  className?: string;
}

/** The hamburger button of a small-screen menu, with its open/closed label and state. */
export function MenuToggle({ open, controls, onToggle, className }: MenuToggleProps) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className={className}
      aria-expanded={open}
      aria-controls={controls}
      aria-label={open ? 'Close menu' : 'Open menu'}
      onClick={onToggle}
    >
      <Icon className="size-6" d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} />
    </Button>
  );
}
