/**
 * `npm run admin:reset-mfa -- --username <name> [--password <pw>] [--local]`
 *
 * The way back in for an administrator who lost their authenticator app
 * (decision 036): ends every session of theirs, makes their identity in the
 * admin pool anew (Cognito cannot remove an authenticator from an identity in
 * a pool that requires MFA) with the same username and email and a new
 * password, and records it in the admin audit trail. Their next sign-in sets
 * up an authenticator again. Give the new password to the admin in person or
 * by another channel you trust; they can change it in Site Settings.
 *
 * Finds AWS or the local cloud as `npm run admin:create` does.
 * Without `--password` a strong random password is generated and printed.
 * Exits 1 with a message when the input is invalid or there is no such admin.
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { resetAdminSecondFactor } from '../src/domain/accounts/admin';
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

const usage = `Usage: npm run admin:reset-mfa -- --username <name> [--password <password>] [--local]

  --username  the admin who lost their authenticator (required)
  --password  their new password, at least ${MIN_PASSWORD_LENGTH} characters; omitted: a random one is generated and printed
  --local     use the running local cloud (npm start) instead of AWS

Ends every session of the admin and removes their authenticator; their next sign-in, with the new
password, sets one up again. The change is kept in the admin audit trail.

${awsSettingsHelp}`;

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      local: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
}

/** Who ran the command, for the audit trail. */
function operator(env: NodeJS.ProcessEnv): string {
  let name = env.USER || env.USERNAME || '';
  try {
    name ||= userInfo().username;
  } catch {
    // No user name to be had: the audit record says only where the change came from.
  }
  return name ? `${name} (command line)` : 'command line';
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const username = usernameOf(values.username, usage);
  const { password, generated } = passwordOf(values.password);
  return withAdminStores(values.local ?? false, env, async (stores, target) => {
    try {
      await resetAdminSecondFactor(stores, { username, password, operator: operator(env) });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') throw new UsageError(error.message);
      if (error instanceof DomainError && error.kind === 'validation') {
        throw new UsageError(`Refused: ${error.message}`);
      }
      throw error;
    }
    console.log(
      `Reset the second factor of admin "${username}": every session ended, authenticator removed.`,
    );
    if (generated) console.log(`New password: ${password}`);
    if (target.siteUrl)
      console.log(`They sign in at ${target.siteUrl}/admin/login and set up an authenticator again.`);
    else console.log('Their next sign-in sets up an authenticator again.');
    return 0;
  });
}

await runCommand('Could not reset the admin', main);
