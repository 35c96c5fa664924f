import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { paths, safeRedirect } from '../config/paths';
import { api } from '../lib/api-client';

let started = false;

/**
 * Spec section 2: the app reads a `redirect` query parameter at start and acts on it. A link from
 * an email or a text (`/?redirect=<path>&notification=<id>`) goes through the notification redirect
 * log (section 7, POST /api/redirect/redirectToDestination), which records the click and answers
 * where to go; the answer, like any redirect, is only ever a page of this portal. /login keeps its
 * `redirect` for after sign-in.
 */
export function StartRedirect() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (started) return;
    started = true;
    const query = new URLSearchParams(location.search);
    const target = safeRedirect(query.get('redirect'));
    const notificationId = query.get('notification');
    if (!target || location.pathname === paths.login.path) return;
    if (!notificationId) {
      void navigate(target, { replace: true });
      return;
    }
    void api
      .post<{ destination: string }>('/redirect/redirectToDestination', { notificationId, destination: target })
      .then(({ destination }) => safeRedirect(destination) ?? target, () => target)
      .then((to) => navigate(to, { replace: true }));
  }, [location, navigate]);
  return <Outlet />;
}
