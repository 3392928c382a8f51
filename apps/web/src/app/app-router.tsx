import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { signedInRoutes, signedOutRoutes } from './routes';

type Router = ReturnType<typeof createBrowserRouter>;

let current: { signedIn: boolean; router: Router } | null = null;

// Kept outside React so that StrictMode's double render cannot create or dispose a router twice.
function routerFor(signedIn: boolean): Router {
  if (current?.signedIn !== signedIn) {
    current?.router.dispose();
    current = { signedIn, router: createBrowserRouter(signedIn ? signedInRoutes : signedOutRoutes) };
  }
  return current.router;
}

/** Two route tables: signed out, every unknown path is the Login page; signed in, it is /accounts. */
export function AppRouter({ signedIn }: { signedIn: boolean }) {
  return <RouterProvider router={routerFor(signedIn)} />;
}
