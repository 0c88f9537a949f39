/** The parts of the SES SDK we use, loaded lazily by mailer.ts (a named re-export keeps the chunk small). */
export { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
