/**
 * The signing credentials of content credentials (C2PA), made without a
 * certificate authority: a P-256 root certificate of the site's own issues a
 * P-256 signing certificate with the profile C2PA asks of a claim signer
 * (not a CA, digital signature only, email protection as its extended key
 * usage), and the root's private key is thrown away. Validators trust the
 * signature only when told to trust the root (it is on no trust list): the
 * files are signed and tamper-evident, not vouched for by a public CA.
 *
 * Node makes keys and signs but does not write certificates, so the DER is
 * written here (RFC 5280).
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';

/** What the signer needs: its private key and its certificate chain (signer first, then the root). */
export interface SigningCredentials {
  /** PKCS#8 PEM of the signing key (P-256). */
  privateKeyPem: string;
  /** PEM certificates: the signing certificate, then the root that issued it. */
  certificatesPem: string[];
}

// DER (X.690) for the handful of types a certificate uses.

function length(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

const tlv = (tag: number, content: Uint8Array): Uint8Array =>
  Uint8Array.from([tag, ...length(content.length), ...content]);

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const sequence = (...items: Uint8Array[]) => tlv(0x30, concat(...items));
const set = (...items: Uint8Array[]) => tlv(0x31, concat(...items));
const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
const bitString = (bytes: Uint8Array, unusedBits = 0) => tlv(0x03, concat(Uint8Array.of(unusedBits), bytes));
const boolean = (value: boolean) => tlv(0x01, Uint8Array.of(value ? 0xff : 0));
const utf8String = (text: string) => tlv(0x0c, new TextEncoder().encode(text));
const explicit = (n: number, content: Uint8Array) => tlv(0xa0 | n, content);

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps it positive). */
function integer(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && ((bytes[start + 1] as number) & 0x80) === 0)
    start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, (trimmed[0] as number) & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed);
}

function oid(dotted: string): Uint8Array {
  const [first, second, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280, 4.1.2.5). */
function time(at: Date): Uint8Array {
  const iso = at.toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return at.getUTCFullYear() < 2050
    ? tlv(0x17, new TextEncoder().encode(digits.slice(2)))
    : tlv(0x18, new TextEncoder().encode(digits));
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  emailProtection: '1.3.6.1.5.5.7.3.4',
} as const;

const name = (commonName: string, organization: string) =>
  sequence(
    set(sequence(oid(OID.commonName), utf8String(commonName))),
    set(sequence(oid(OID.organization), utf8String(organization))),
  );

const extension = (id: string, critical: boolean, value: Uint8Array) =>
  sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));

/** The key identifier RFC 5280 suggests: SHA-1 of the public key's bits. */
function keyIdentifier(publicKey: KeyObject): Uint8Array {
  const spki = new Uint8Array(publicKey.export({ type: 'spki', format: 'der' }));
  // The SubjectPublicKeyInfo of a P-256 key ends with its 65-byte point.
  return new Uint8Array(
    createHash('sha1')
      .update(spki.subarray(spki.length - 65))
      .digest(),
  );
}

interface CertificateRequest {
  subject: Uint8Array;
  issuer: Uint8Array;
  publicKey: KeyObject;
  issuerKey: KeyObject;
  issuerPublicKey: KeyObject;
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
}

function certificate(request: CertificateRequest): Uint8Array {
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const extensions = [
    extension(OID.basicConstraints, true, request.ca ? sequence(boolean(true)) : sequence()),
    // keyCertSign and cRLSign (bits 5, 6) for the root; digitalSignature (bit 0) for the signer.
    extension(
      OID.keyUsage,
      true,
      request.ca ? bitString(Uint8Array.of(0x06), 1) : bitString(Uint8Array.of(0x80), 7),
    ),
    ...(request.ca ? [] : [extension(OID.extKeyUsage, false, sequence(oid(OID.emailProtection)))]),
    extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(request.publicKey))),
    extension(OID.authorityKeyIdentifier, false, sequence(tlv(0x80, keyIdentifier(request.issuerPublicKey)))),
  ];
  const tbs = sequence(
    explicit(0, integer(Uint8Array.of(2))),
    integer(serial),
    algorithm,
    request.issuer,
    sequence(time(request.notBefore), time(request.notAfter)),
    request.subject,
    new Uint8Array(request.publicKey.export({ type: 'spki', format: 'der' })),
    explicit(3, sequence(...extensions)),
  );
  const signature = new Uint8Array(sign('sha256', tbs, request.issuerKey));
  return sequence(tbs, algorithm, bitString(signature));
}

const pem = (label: string, der: Uint8Array) =>
  `-----BEGIN ${label}-----\n${(
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  ).join('\n')}\n-----END ${label}-----\n`;

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * New signing credentials for `organization` (the site's name): a root valid
 * for 20 years that signs one signing certificate valid for 10, both from an
 * hour ago (clocks drift).
 */
export function makeSigningCredentials(organization: string, now: Date = new Date()): SigningCredentials {
  const root = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const rootName = name(`${organization} Content Credentials Root`, organization);
  const rootCertificate = certificate({
    subject: rootName,
    issuer: rootName,
    publicKey: root.publicKey,
    issuerKey: root.privateKey,
    issuerPublicKey: root.publicKey,
    notBefore,
    notAfter: new Date(now.getTime() + 20 * YEAR_MS),
    ca: true,
  });
  const signerCertificate = certificate({
    subject: name(`${organization} Content Credentials`, organization),
    issuer: rootName,
    publicKey: signer.publicKey,
    issuerKey: root.privateKey,
    issuerPublicKey: root.publicKey,
    notBefore,
    notAfter: new Date(now.getTime() + 10 * YEAR_MS),
    ca: false,
  });
  return {
    privateKeyPem: signer.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatesPem: [pem('CERTIFICATE', signerCertificate), pem('CERTIFICATE', rootCertificate)],
  };
}

/** Reads stored credentials back, or undefined when they are not credentials (an unset secret). */
export function parseSigningCredentials(text: string | undefined): SigningCredentials | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SigningCredentials>;
    if (
      typeof value.privateKeyPem !== 'string' ||
      !Array.isArray(value.certificatesPem) ||
      value.certificatesPem.length === 0 ||
      value.certificatesPem.some((c) => typeof c !== 'string')
    )
      return undefined;
    createPrivateKey(value.privateKeyPem);
    return { privateKeyPem: value.privateKeyPem, certificatesPem: value.certificatesPem };
  } catch {
    return undefined;
  }
}
