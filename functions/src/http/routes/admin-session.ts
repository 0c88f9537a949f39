import {
  adminChangePasswordSchema,
  adminCodeSchema,
  adminLoginSchema,
  authMessages,
} from '@tunesmith/shared/auth';
import { logout } from '../../domain/accounts/account-service';
import {
  type AdminDeps,
  type AdminUser,
  adminLogin,
  adminLoginCode,
  changeAdminPassword,
} from '../../domain/accounts/admin';
import { DomainError } from '../../domain/errors';
import type { GroupHandlers } from '../group-handler';
import { clientAddress, readJson } from '../request';
import { json } from '../responses';
import type { AdminChallengeCookie, Sessions } from '../session';

export interface AdminSessionRouteDeps {
  admins: AdminDeps;
  sessions: Sessions<AdminUser>;
  challenge: AdminChallengeCookie;
}

const view = (admin: AdminUser) => ({ username: admin.username, role: admin.role });

/** Administrator sign-in (password, then the second factor), sign-out, identity and password. */
export function adminSessionRoutes({ admins, sessions, challenge }: AdminSessionRouteDeps): GroupHandlers {
  return {
    adminLogin: async (event) => {
      const input = readJson(event, adminLoginSchema);
      const step = await adminLogin(admins, input, clientAddress(event));
      const lifetime = step.expiresAt - Math.floor(admins.clock.now().getTime() / 1000);
      const body =
        step.step === 'setup'
          ? { secondFactor: 'setup', secret: step.secret, otpauthUri: step.otpauthUri }
          : { secondFactor: 'code' };
      return json(200, body, { cookies: [challenge.set(step.challenge, lifetime)] });
    },

    adminLoginCode: async (event, ctx) => {
      const input = readJson(event, adminCodeSchema);
      try {
        const { admin, tokens } = await adminLoginCode(
          admins,
          { challenge: challenge.read(event), code: input.code },
          clientAddress(event),
        );
        return json(200, view(admin), { cookies: [...sessions.issue(tokens), challenge.clear()] });
      } catch (error) {
        // A sign-in that is over (expired, or its admin refused) starts again from the password.
        if (error instanceof DomainError && error.kind === 'unauthorized')
          ctx.cookies.push(challenge.clear());
        throw error;
      }
    },

    adminLogout: async (event, ctx) => {
      await logout(admins, sessions.tokens(event));
      ctx.cookies.length = 0;
      return json(200, { message: authMessages.loggedOut }, { cookies: sessions.clear() });
    },

    getCurrentAdmin: async (_event, ctx) => json(200, view(ctx.admin as AdminUser)),

    adminChangePassword: async (event, ctx) => {
      const input = readJson(event, adminChangePasswordSchema);
      await changeAdminPassword(admins, ctx.admin as AdminUser, input, clientAddress(event));
      ctx.cookies.length = 0;
      return json(200, { message: authMessages.adminPasswordChanged }, { cookies: sessions.clear() });
    },
  };
}
