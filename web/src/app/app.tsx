import { RouterProvider } from 'react-router-dom';
import { PageSuspense } from '../components/ui/page-loading';
import { AppProvider } from './provider';
import { router } from './router';

export function App() {
  return (
    <AppProvider>
      <PageSuspense>
        <RouterProvider router={router} />
      </PageSuspense>
    </AppProvider>
  );
}
