import { describe, expect, it } from 'vitest';
import { configReport } from './config-report.js';
import { checkImageSettingsFromEnv } from './check-images.js';
import { coreOptions, loadConfig } from './config.js';

const key = 'a'.repeat(64);
const creds = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };

describe('REMIT_CHECK_IMAGES_S3_*', () => {
  it('unset: images in the database', () => {
    const c = loadConfig({ REMIT_ENCRYPTION_KEY: key });
    expect(c.checkImageStore).toBeUndefined();
    expect(configReport(c, {}).check_images).toBe('database');
  });

  it('a bucket with an S3-compatible endpoint: its settings, the store in the core options and the report', () => {
    const env = {
      REMIT_ENCRYPTION_KEY: key,
      REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks',
      REMIT_CHECK_IMAGES_S3_ENDPOINT: 'https://minio.internal:9000',
      REMIT_CHECK_IMAGES_S3_PREFIX: 'prod/',
      ...creds,
    };
    expect(checkImageSettingsFromEnv(env, 'production')).toEqual({
      bucket: 'remit-checks',
      endpoint: 'https://minio.internal:9000',
      region: 'us-east-1',
      prefix: 'prod/',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret', sessionToken: undefined },
    });
    const c = loadConfig({ ...env, REMIT_ENV: 'production' });
    expect(coreOptions(c).checkImageStore?.name).toBe('s3:remit-checks');
    expect(configReport(c, env).check_images).toBe('s3:remit-checks');
    expect(JSON.stringify(configReport(c, env))).not.toContain('secret');
  });

  it('AWS itself: no endpoint, the region given, credentials left to the instance role', () => {
    expect(
      checkImageSettingsFromEnv(
        { REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks', REMIT_CHECK_IMAGES_S3_REGION: 'eu-west-3' },
        'production',
      ),
    ).toEqual({
      bucket: 'remit-checks',
      endpoint: undefined,
      region: 'eu-west-3',
      prefix: '',
      credentials: undefined,
    });
  });

  it('production refuses an endpoint in clear http off this machine; loopback and the sandbox may', () => {
    const env = {
      REMIT_ENCRYPTION_KEY: key,
      REMIT_ENV: 'production',
      REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks',
      ...creds,
    };
    expect(() => loadConfig({ ...env, REMIT_CHECK_IMAGES_S3_ENDPOINT: 'http://minio.internal:9000' })).toThrow(
      "REMIT_CHECK_IMAGES_S3_ENDPOINT must use https in production (or http on this machine only): http://minio.internal:9000 would carry the access key's signatures and the check images in clear",
    );
    expect(() => loadConfig({ ...env, REMIT_CHECK_IMAGES_S3_ENDPOINT: 'http://10.0.0.5:9000' })).toThrow(
      /must use https in production/,
    );
    expect(loadConfig({ ...env, REMIT_CHECK_IMAGES_S3_ENDPOINT: 'http://127.0.0.1:9000' }).checkImageStore?.name).toBe(
      's3:remit-checks',
    );
    expect(loadConfig({ ...env, REMIT_CHECK_IMAGES_S3_ENDPOINT: 'http://[::1]:9000' }).checkImageStore?.name).toBe(
      's3:remit-checks',
    );
    expect(
      loadConfig({ ...env, REMIT_ENV: 'sandbox', REMIT_CHECK_IMAGES_S3_ENDPOINT: 'http://minio.internal:9000' })
        .checkImageStore?.name,
    ).toBe('s3:remit-checks');
  });

  it('malformed settings stop the start with their name', () => {
    const s = (env: Record<string, string>) => () => checkImageSettingsFromEnv(env, 'sandbox');
    expect(s({ REMIT_CHECK_IMAGES_S3_BUCKET: 'Remit_Checks' })).toThrow(
      /REMIT_CHECK_IMAGES_S3_BUCKET must be a bucket name/,
    );
    expect(s({ REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks', REMIT_CHECK_IMAGES_S3_ENDPOINT: 'minio:9000' })).toThrow(
      /REMIT_CHECK_IMAGES_S3_ENDPOINT must be an http\(s\) URL/,
    );
    expect(s({ REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks', REMIT_CHECK_IMAGES_S3_ENDPOINT: 'ftp://minio' })).toThrow(
      /must be an http\(s\) URL/,
    );
    expect(s({ REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks', REMIT_CHECK_IMAGES_S3_PREFIX: '/x/' })).toThrow(
      /must not start with \//,
    );
    expect(s({ REMIT_CHECK_IMAGES_S3_ENDPOINT: 'https://minio' })).toThrow(/need REMIT_CHECK_IMAGES_S3_BUCKET/);
    expect(s({ REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks', AWS_ACCESS_KEY_ID: 'AKIA' })).toThrow(/go together/);
  });
});
