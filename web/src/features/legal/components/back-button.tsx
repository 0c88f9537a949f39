import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';

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
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M15 18l-6-6 6-6" />
      </svg>
      Back
    </Button>
  );
}
