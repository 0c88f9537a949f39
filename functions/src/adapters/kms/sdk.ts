/** The parts of the KMS SDK we use, loaded lazily by secret-box.ts (a named re-export keeps the chunk small). */
export { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
