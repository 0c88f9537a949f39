import {
  authMessages,
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  updateEmailSchema,
  updatePasswordSchema,
} from '@tunesmith/shared/auth';
import { deleteAccountSchema, ownershipMessages } from '@tunesmith/shared/ownership';
import {
  type AccountDeletionRequestDeps,
  requestAccountDeletion,
} from '../../domain/accounts/account-deletion';
import {
  type AccountDeps,
  login,
  logout,
  register,
  requestEmailChange,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  updatePassword,
  verifyEmail,
} from '../../domain/accounts/account-service';
import type { Clock } from '../../domain/accounts/ports';
import { toCurrentUser, type User } from '../../domain/accounts/user';
import type { PlanRepository } from '../../domain/plans/plan';
import { assertNotCrossSite } from '../csrf';
import type { GroupHandlers } from '../group-handler';
import { clientAddress, readJson } from '../request';
import { json } from '../responses';
import type { Sessions } from '../session';

export interface AuthRouteDeps {
  accounts: AccountDeps;
  /** Deleting one's own account: built on first use (it loads the Stripe client). */
  deletion: () => AccountDeletionRequestDeps;
  sessions: Sessions<User>;
  /** To name the user's plan and what it allows. */
  plans: Pick<PlanRepository, 'listBySortOrder'>;
  clock: Clock;
}

/** Sign-up, verification, sign-in, reset and account changes of regular users. */
export function authRoutes({ accounts, deletion, sessions, plans, clock }: AuthRouteDeps): GroupHandlers {
  const view = async (user: User) => {
    // Every plan, the user's among them: one read, not a second for the user's own.
    const all = await plans.listBySortOrder();
    const plan = user.subscriptionPlanId ? all.find((p) => p.id === user.subscriptionPlanId) : undefined;
    return toCurrentUser(user, plan, clock.now(), all);
  };
  return {
    register: async (event) => {
      const input = readJson(event, registerSchema);
      const out = await register(accounts, input, clientAddress(event));
      return json(201, { ...out, message: authMessages.registered });
    },

    verifyEmail: async (_event, ctx) => {
      const { firstName, message } = await verifyEmail(accounts, ctx.params.token ?? '');
      return json(200, { message, user: { firstName } });
    },

    resendVerification: async (event) => {
      const { email } = readJson(event, resendVerificationSchema);
      return json(200, { message: await resendVerification(accounts, email, clientAddress(event)) });
    },

    login: async (event) => {
      const input = readJson(event, loginSchema);
      const { user, tokens } = await login(accounts, input, clientAddress(event));
      return json(200, await view(user), { cookies: sessions.issue(tokens) });
    },

    getCurrentUser: async (event) => {
      const session = await sessions.authenticate(event);
      if (!session) {
        return json(
          401,
          { message: 'Unauthorized' },
          sessions.present(event) ? { cookies: sessions.clear() } : {},
        );
      }
      return json(200, await view(session.principal), { cookies: session.cookies });
    },

    logout: async (event) => {
      assertNotCrossSite(event);
      await logout(accounts, sessions.tokens(event));
      return {
        statusCode: 302,
        headers: { location: '/', 'cache-control': 'no-store' },
        cookies: sessions.clear(),
      };
    },

    requestPasswordReset: async (event) => {
      const { email } = readJson(event, emailOnlySchema);
      return json(200, { message: await requestPasswordReset(accounts, email, clientAddress(event)) });
    },

    resetPassword: async (event) => {
      const { token, newPassword } = readJson(event, resetPasswordSchema);
      return json(200, { message: await resetPassword(accounts, token, newPassword) });
    },

    updateEmail: async (event, ctx) => {
      const input = readJson(event, updateEmailSchema);
      const message = await requestEmailChange(accounts, ctx.user as User, input, clientAddress(event));
      return json(202, { message });
    },

    updatePassword: async (event, ctx) => {
      const input = readJson(event, updatePasswordSchema);
      const tokens = await updatePassword(accounts, ctx.user as User, input, clientAddress(event));
      // The caller's session goes on with fresh tokens; every other one has ended.
      ctx.cookies.length = 0;
      return json(200, { message: authMessages.passwordUpdated }, { cookies: sessions.issue(tokens) });
    },

    deleteAccount: async (event, ctx) => {
      const input = readJson(event, deleteAccountSchema);
      await requestAccountDeletion(deletion(), ctx.user as User, input, clientAddress(event));
      // Every session of the account has ended; this browser forgets its own with the answer.
      ctx.cookies.length = 0;
      return json(202, { message: ownershipMessages.accountDeleting }, { cookies: sessions.clear() });
    },
  };
}
