import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A CA, a server certificate for 127.0.0.1, a client certificate it signed and one from another CA. */
export function certificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  for (const ca of ['ca', 'other-ca']) openssl('req', '-x509', ...ecKey, '-days', '2', '-subj', `/CN=${ca}`, '-keyout', `${ca}.key`, '-out', `${ca}.crt`);
  const sign = (name: string, ca: string, ext: string) => {
    openssl('req', ...ecKey, '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    writeFileSync(path.join(dir, `${name}.ext`), ext);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.crt`,
    );
  };
  sign('server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  sign('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  sign('stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  const read = (f: string) => readFileSync(path.join(dir, f));
  return {
    file: (f: string) => path.join(dir, f),
    ca: read('ca.crt'),
    client: { cert: read('client.crt'), key: read('client.key') },
    stranger: { cert: read('stranger.crt'), key: read('stranger.key') },
  };
}
