// TLS material: a generated self-signed certificate for 127.0.0.1/localhost, or given files.
import { generate } from 'selfsigned';

export interface TlsMaterial {
  cert: string;
  key: string;
}

/** A fresh self-signed certificate valid for localhost, 127.0.0.1 and ::1. */
export async function selfSignedCertificate(): Promise<TlsMaterial> {
  const notAfter = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
