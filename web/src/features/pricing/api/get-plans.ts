import { useQuery } from '@tanstack/react-query';
import { plansQueryOptions } from '@/lib/plans';

export function usePlans() {
  return useQuery(plansQueryOptions());
}
