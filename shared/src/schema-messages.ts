/**
 * zod's English messages, for the rules that name no message of their own (a
 * length limit, a wrong type): the schemas are written with zod/mini, which
 * leaves the messages out of what it loads (decision 042), so every schema
 * module imports this file. package.json lists it as a side effect, so no
 * bundler drops it.
 */
import { en } from 'zod/locales';
import { config } from 'zod/mini';

config(en());
