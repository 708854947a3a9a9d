// Certificates made at test time for the HTTPS test web: a test CA, a server
// certificate for given host names signed by it, an expired one, one for another host,
// one not yet valid, and a self-signed one (no CA vouches for it). EC P-256 keys: quick
// to make. The CA is also written to a PEM file in a temporary folder (for --ca-file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { tempDir } from '../../src/util/testing.js';

export interface KeyCert {
  key: string;
  cert: string;
}

export interface TestCerts {
  /** The test CA (its key signs the others). */
  ca: KeyCert;
  /** A PEM file holding the CA's certificate. */
  caFile: string;
  /** Valid now, for `hosts`, signed by the CA. */
  good: KeyCert;
  /** For `hosts`, signed by the CA, expired a year ago. */
  expired: KeyCert;
  /** For `hosts`, signed by the CA, valid only from next year. */
  notYetValid: KeyCert;
  /** Valid now, signed by the CA, for another host only (`other-host.example`). */
  wrongHost: KeyCert;
  /** For `hosts`, signed by its own key. */
  selfSigned: KeyCert;
}

const DAY_MS = 86_400_000;

function serverExtensions(hosts: readonly string[]) {
  return [
    { name: 'basicConstraints' as const, cA: false },
    { name: 'keyUsage' as const, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage' as const, serverAuth: true },
    {
      name: 'subjectAltName' as const,
      altNames: hosts.map((value) => ({ type: 2 as const, value })),
    },
  ];
}

async function leaf(
  hosts: readonly string[],
  ca: KeyCert | undefined,
  notBeforeDate: Date,
  notAfterDate: Date,
): Promise<KeyCert> {
  const pems = await generate([{ name: 'commonName', value: hosts[0] ?? 'test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: serverExtensions(hosts),
    ...(ca === undefined ? {} : { ca }),
  });
  return { key: pems.private, cert: pems.cert };
}

/** Makes the certificates for `hosts` (host names, no wildcards under a top-level domain). */
export async function makeTestCerts(hosts: readonly string[]): Promise<TestCerts> {
  const now = Date.now();
  const past = new Date(now - DAY_MS);
  const future = new Date(now + 30 * DAY_MS);
  const caPems = await generate([{ name: 'commonName', value: 'focuscrawl test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 2 * 365 * DAY_MS),
    notAfterDate: new Date(now + 2 * 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const ca = { key: caPems.private, cert: caPems.cert };
  const caFile = join(tempDir('certs'), 'test-ca.pem');
  writeFileSync(caFile, ca.cert);
  const [good, expired, notYetValid, wrongHost, selfSigned] = await Promise.all([
    leaf(hosts, ca, past, future),
    leaf(hosts, ca, new Date(now - 400 * DAY_MS), new Date(now - 365 * DAY_MS)),
    leaf(hosts, ca, new Date(now + 365 * DAY_MS), new Date(now + 400 * DAY_MS)),
    leaf(['other-host.example'], ca, past, future),
    leaf(hosts, undefined, past, future),
  ]);
  return { ca, caFile, good, expired, notYetValid, wrongHost, selfSigned };
}
