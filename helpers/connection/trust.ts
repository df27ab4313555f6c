// Which certificates the suite trusts for the shop (Node's own roots, NODE_EXTRA_CA_CERTS and
// ZONES_CA_FILE), and what a certificate it does not trust means.

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Why ZONES_CA_FILE cannot serve as a CA file, if it cannot: checked once, before any request. */
export function caFileProblem(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}: ${path})`;
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) return `holds no PEM certificate (no -----BEGIN CERTIFICATE----- block in ${path})`;
  for (const pem of certificates) {
    try {
      new X509Certificate(pem);
    } catch {
      return `holds a certificate block that is not a certificate (${path})`;
    }
  }
  return undefined;
}

/** A `ca` option replaces Node's trust store instead of adding to it: the usual roots are given again beside the file. */
export function trustedCas(caFile: string): string[] {
  const getCACertificates = (tls as { getCACertificates?: (type: 'default') => string[] }).getCACertificates;
  // Node 22.15 and later say what the default store holds (NODE_EXTRA_CA_CERTS and system CAs included).
  const usual = getCACertificates ? getCACertificates('default') : [...tls.rootCertificates, ...extraCas()];
  return [...usual, ...(readFileSync(caFile, 'utf8').match(PEM_CERTIFICATE) ?? [])];
}

function extraCas(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [];
  } catch {
    // Node has already warned at start-up that it could not read the file.
    return [];
  }
}

/** Certificates nobody the suite trusts has signed: a CA added to the trust store fixes these. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'CERT_REJECTED',
]);
const OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_NAME = 'ERR_TLS_CERT_ALTNAME_INVALID';

export function isCertificateCode(code: string | undefined): boolean {
  return code !== undefined && (UNTRUSTED.has(code) || OUT_OF_DATE.has(code) || code === WRONG_NAME);
}

/** Looked for along the causes (through a proxy, undici wraps the shop's TLS error); a certificate code wins, naming the fix. */
export function errorCodeOf(error: unknown): string | undefined {
  let first: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (isCertificateCode(code)) return code;
      first ??= code;
    }
    current = current.cause;
  }
  return first;
}

/** "<what it is>: <which setting to fix>". */
export function certificateAdvice(code: string, caFile: string | undefined): string {
  const cas = 'ZONES_CA_FILE (a PEM file) or NODE_EXTRA_CA_CERTS';
  const insecure = 'ZONES_TLS_INSECURE=1 skips verification altogether';
  if (code === WRONG_NAME)
    return `the certificate is made out to another host name, so ZONES_BASE_URL must use a name it lists; a CA in ${cas} cannot change that; ${insecure}`;
  if (OUT_OF_DATE.has(code))
    return `the certificate is out of date (or this machine's clock is wrong): the shop must renew it; a CA in ${cas} cannot change that; ${insecure}`;
  const already = caFile === undefined ? '' : `ZONES_CA_FILE=${caFile} does not hold it; `;
  return `the certificate is signed by a CA this machine does not trust: ${already}give that CA in ${cas}; ${insecure}`;
}
