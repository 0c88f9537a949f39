import { Outlet, ScrollRestoration } from 'react-router';
import { MainLayout } from '@/components/layout/main-layout';

export function RootLayout() {
  return (
    <MainLayout>
      <Outlet />
      <ScrollRestoration />
    </MainLayout>
  );
}
