import * as z from 'zod/mini';
import { messages } from './messages';
import './schema-messages';

/** The contact form (spec 1: name, email, subject, message, all required). */
export const contactSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, messages.contact.nameRequired)),
  email: z.string().check(z.trim(), z.email(messages.contact.emailInvalid)),
  subject: z.string().check(z.trim(), z.minLength(1, messages.contact.subjectRequired)),
  message: z.string().check(z.trim(), z.minLength(1, messages.contact.messageRequired)),
});
export type ContactInput = z.infer<typeof contactSchema>;
