import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, parsePgHosts } from './pg-hosts.js';

describe('parsePgHosts', () => {
  it('splits a libpq multi-host URL into one URL per host, keeping user, database and other parameters', () => {
    expect(
      parsePgHosts('postgres://remit:pw@db1:5432,db2:6543/remit?sslmode=require&target_session_attrs=read-write'),
    ).toEqual({
      urls: [
        'postgres://remit:pw@db1:5432/remit?sslmode=require',
        'postgres://remit:pw@db2:6543/remit?sslmode=require',
      ],
      targetSessionAttrs: 'read-write',
    });
  });
  it('leaves a single-host URL as it is; read-write unless any is asked', () => {
    expect(parsePgHosts('postgres://u@h/db')).toEqual({
      urls: ['postgres://u@h/db'],
      targetSessionAttrs: 'read-write',
    });
    expect(parsePgHosts('postgresql://u@h:1/db?target_session_attrs=any')).toEqual({
      urls: ['postgresql://u@h:1/db'],
      targetSessionAttrs: 'any',
    });
  });
  it('refuses a target_session_attrs Remit cannot honour', () => {
    expect(() => parsePgHosts('postgres://u@h1,h2/db?target_session_attrs=standby')).toThrow(/read-write .* or any/);
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows a failover from a statement error, through the causes a query error wraps', () => {
    const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
    expect(
      isDatabaseUnavailable(wrapped(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))),
    ).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('read-only transaction'), { code: '25006' })))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('terminating connection'), { code: '57P01' })))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });
});
