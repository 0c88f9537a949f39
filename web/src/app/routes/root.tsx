import { Outlet } from 'react-router';
import { PageBoundary } from '@/app/page-boundary';
import { MainLayout } from '@/components/layout/main-layout';

export function RootLayout() {
  return (
    <MainLayout>
      <PageBoundary>
        <Outlet />
      </PageBoundary>
    </MainLayout>
  );
}
