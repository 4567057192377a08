export { exactOrigin, originField, ORIGIN_RULE } from '@remit/contract';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** http is only for a developer's own machine, and only in sandbox. */
export const isLocalOrigin = (origin: string) => LOCAL_HOSTS.has(new URL(origin).hostname);
