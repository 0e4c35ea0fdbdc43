// Account passwords are kept (and persisted) only as salted scrypt hashes, so a data file never
// holds a secret. Checks run on async scrypt (the thread pool), so a sign-in never stalls the
// service's other requests; set-up hashing (accounts, password changes) stays synchronous.
import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

// Low cost on purpose: this is a local demo/test service answering many requests per second.
const COST = 1024;
const KEY_LENGTH = 32;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, KEY_LENGTH, { N: COST });
  return `scrypt$${COST}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

function scryptAsync(password: string, salt: Buffer, length: number, N: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64'),
    expected.length,
    Number(cost),
  );
  return timingSafeEqual(expected, actual);
}
