/** Which world a server runs in: sandbox (simulated money, test keys) or production (live keys). */
export type Env = 'sandbox' | 'production';
