import { Hono } from 'hono';
import { deleteAccount } from '../../core/account/delete-account';
import { exportUserData } from '../../db/account-data';
import { sessionTokenHashes } from '../../db/sessions';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { clearSessionCookies, requireUser } from '../middleware/session';

/** GET /api/account/export (everything of the user's, as JSON) and DELETE /api/account (docs/decisions/data-lifecycle.md). */
export function accountRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/api/account/export', async (c) => {
    const user = requireUser(c);
    const data = await exportUserData(deps.sql, user.id);
    if (!data) throw new ApiError(401, 'Please sign in with Google first.');
    const day = new Date().toISOString().slice(0, 10);
    return c.json({ exported_at: new Date().toISOString(), ...data }, 200, {
      'content-disposition': `attachment; filename="event-finder-data-${day}.json"`,
    });
  });

  app.delete('/api/account', async (c) => {
    const user = requireUser(c);
    // Read before the rows go (the sessions go with the user), revoked on every api process after.
    const sessions = await sessionTokenHashes(deps.sql, user.id);
    try {
      await deleteAccount(deps, user);
    } catch (err) {
      c.get('log').error({ err }, 'account deletion failed before its rows were deleted');
      throw new ApiError(
        502,
        'Your account could not be deleted just now (the payment provider or our database did not answer). Please try again in a few minutes.',
      );
    }
    // The session rows went with the user; their proofs and this browser's cookies go too.
    await deps.sessionRevocations.revoke(sessions);
    clearSessionCookies(c, deps.config);
    c.get('log').info({ userId: user.id }, 'account deleted');
    return c.json({ deleted: true });
  });

  return app;
}
