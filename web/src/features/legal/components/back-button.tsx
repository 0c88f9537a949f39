import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';

/** Goes back in history, or home when the page was the first one opened. */
export function BackButton() {
  const navigate = useNavigate();
  const location = useLocation();
  const firstPage = location.key === 'default';
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => (firstPage ? navigate('/') : navigate(-1))}
      className="-ml-3"
    >
      <Icon d="M15 18l-6-6 6-6" />
      Back
    </Button>
  );
}
