// Certificates made at test time with the openssl command line (Node can sign, but has no X.509
// builder): a private CA, and server certificates it signs. Everything is written to a temporary
// folder that the caller removes; no key is ever part of the repository.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerCertificate {
  key: string;
  cert: string;
}

export interface TestCa {
  /** Path of the CA certificate (PEM), for ZONES_CA_FILE or NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** A server certificate signed by this CA for these names (`DNS:host` or `IP:127.0.0.1`). */
  issue(names: string[]): ServerCertificate;
  /** Removes the folder, keys and all. */
  remove(): void;
}

const EXTENSIONS = `[req]
distinguished_name = subject
prompt = no
[subject]
CN = zones-conformance self-test CA
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
`;

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? 'these self-tests make their certificates with the openssl command, which is not on the PATH'
        : `openssl ${args[0]} failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim()}`,
    );
  }
}

/** A CA of its own, valid for two days; `name` tells two such CAs apart. */
export function makeTestCa(name = 'ca'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'zc-pki-'));
  const file = (base: string) => join(dir, base);
  writeFileSync(file('openssl.cnf'), EXTENSIONS);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...newKey,
    '-config',
    file('openssl.cnf'),
    '-extensions',
    'ca',
    '-subj',
    `/CN=zones-conformance self-test ${name}`,
    '-days',
    '2',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  ]);
  let issued = 0;
  return {
    caFile: file('ca.pem'),
    issue(names) {
      issued += 1;
      const base = file(`server-${issued}`);
      writeFileSync(`${base}.cnf`, `${EXTENSIONS}subjectAltName = ${names.join(', ')}\n`);
      const subject = `/CN=${names[0]!.replace(/^\w+:/, '')}`;
      openssl([
        'req',
        '-new',
        ...newKey,
        '-config',
        `${base}.cnf`,
        '-subj',
        subject,
        '-keyout',
        `${base}.key`,
        '-out',
        `${base}.csr`,
      ]);
      openssl([
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca.key'),
        '-set_serial',
        String(1000 + issued),
        '-days',
        '2',
        '-extfile',
        `${base}.cnf`,
        '-extensions',
        'server',
        '-out',
        `${base}.pem`,
      ]);
      return { key: readFileSync(`${base}.key`, 'utf8'), cert: readFileSync(`${base}.pem`, 'utf8') };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
