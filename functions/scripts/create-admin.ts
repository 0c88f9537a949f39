/**
 * `npm run admin:create -- --username <name> [--password <pw>] [--email <address>] [--local]`
 *
 * Creates an administrator (an identity in the admin pool plus its profile
 * item in the table, role admin, active) with the domain's `createAdmin`, the
 * same code path the local cloud uses for its first admin. The admin sets up
 * an authenticator app at their first sign-in (decision 036).
 *
 * - Against AWS (default): reads TABLE_NAME, ADMIN_POOL_ID, ADMIN_POOL_CLIENT_ID
 *   and AWS_REGION from the environment (take them from the stack outputs
 *   TableName, AdminPoolId, AdminPoolClientId) and uses the usual AWS
 *   credentials (AWS_PROFILE, ...).
 * - `--local`: talks to the running local cloud (`npm start`), found through
 *   `local-cloud.json` in its data directory (`.data`, or TUNESMITH_DATA_DIR).
 *
 * Without `--password` a strong random password is generated and printed.
 * Exits 1 with a message when the input is invalid or the admin exists.
 */
import { parseArgs } from 'node:util';
import { createAdmin } from '../src/domain/accounts/admin';
import { DomainError } from '../src/domain/errors';
import {
  awsSettingsHelp,
  MIN_PASSWORD_LENGTH,
  passwordOf,
  runCommand,
  UsageError,
  usernameOf,
  withAdminStores,
} from './admin-target';

const usage = `Usage: npm run admin:create -- --username <name> [--password <password>] [--email <address>] [--local]

  --username  sign-in name of the new admin (required)
  --password  at least ${MIN_PASSWORD_LENGTH} characters; omitted: a random one is generated and printed
  --email     optional contact address
  --local     use the running local cloud (npm start) instead of AWS

The new admin sets up an authenticator app (a QR code, or a key to type) at their first sign-in.

${awsSettingsHelp}`;

function parseInput(argv: string[]) {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const { values } = parsed;
  if (values.help) return 'help' as const;
  const username = usernameOf(values.username, usage);
  const email = values.email?.trim();
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new UsageError(`"${email}" is not an email address.`);
  }
  return {
    username,
    ...passwordOf(values.password),
    ...(email ? { email } : {}),
    local: values.local ?? false,
  };
}

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      local: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const input = parseInput(argv);
  if (input === 'help') {
    console.log(usage);
    return 0;
  }
  return withAdminStores(input.local, env, async (stores, target) => {
    try {
      const admin = await createAdmin(stores, {
        username: input.username,
        password: input.password,
        ...(input.email ? { email: input.email } : {}),
      });
      console.log(`Created admin "${admin.username}" (role ${admin.role}).`);
      if (input.generated) console.log(`Password: ${input.password}`);
      if (target.siteUrl) console.log(`Sign in at ${target.siteUrl}/admin/login`);
      console.log('The first sign-in sets up an authenticator app for the second factor.');
      return 0;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') {
        throw new UsageError(`Admin "${input.username}" already exists; choose another username.`);
      }
      if (error instanceof DomainError && error.kind === 'validation') {
        throw new UsageError(`Refused: ${error.message}`);
      }
      throw error;
    }
  });
}

await runCommand('Could not create the admin', main);
