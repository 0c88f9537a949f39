import { adminChangePasswordSchema, adminLoginSchema, authMessages } from '@tunesmith/shared/auth';
import { logout } from '../../domain/accounts/account-service';
import { type AdminDeps, type AdminUser, adminLogin, changeAdminPassword } from '../../domain/accounts/admin';
import type { GroupHandlers } from '../group-handler';
import { clientAddress, readJson } from '../request';
import { json } from '../responses';
import type { Sessions } from '../session';

export interface AdminSessionRouteDeps {
  admins: AdminDeps;
  sessions: Sessions<AdminUser>;
}

const view = (admin: AdminUser) => ({ username: admin.username, role: admin.role });

/** Administrator sign-in, sign-out, identity and password. */
export function adminSessionRoutes({ admins, sessions }: AdminSessionRouteDeps): GroupHandlers {
  return {
    adminLogin: async (event) => {
      const input = readJson(event, adminLoginSchema);
      const { admin, tokens } = await adminLogin(admins, input, clientAddress(event));
      return json(200, view(admin), { cookies: sessions.issue(tokens) });
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
