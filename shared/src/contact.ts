import * as z from 'zod';
import { messages } from './messages';

/** The contact form (spec 1: name, email, subject, message, all required). */
export const contactSchema = z.object({
  name: z.string().trim().min(1, messages.contact.nameRequired),
  email: z.string().trim().email(messages.contact.emailInvalid),
  subject: z.string().trim().min(1, messages.contact.subjectRequired),
  message: z.string().trim().min(1, messages.contact.messageRequired),
});
export type ContactInput = z.infer<typeof contactSchema>;
