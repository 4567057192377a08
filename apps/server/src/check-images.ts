import { createS3CheckImageStore, type CheckImageStore, type Env, type S3CheckImageSettings } from '@remit/core';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
// S3's bucket naming rules, which S3-compatible services share.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * REMIT_CHECK_IMAGES_S3_BUCKET, _ENDPOINT, _REGION and _PREFIX, with the standard AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN): the bucket's settings, or null without a bucket
 * (images in the database). Production refuses an endpoint in clear http off this machine: the
 * signed requests and the images would cross the network unencrypted.
 */
export function checkImageSettingsFromEnv(env: NodeJS.ProcessEnv, remitEnv: Env): S3CheckImageSettings | null {
  const bucket = env.REMIT_CHECK_IMAGES_S3_BUCKET?.trim() ?? '';
  const endpoint = env.REMIT_CHECK_IMAGES_S3_ENDPOINT?.trim() || undefined;
  const prefix = env.REMIT_CHECK_IMAGES_S3_PREFIX?.trim() ?? '';
  if (bucket === '') {
    if (endpoint || prefix)
      throw new Error(
        'REMIT_CHECK_IMAGES_S3_ENDPOINT and _PREFIX need REMIT_CHECK_IMAGES_S3_BUCKET: without it check images are kept in the database',
      );
    return null;
  }
  if (!BUCKET.test(bucket))
    throw new Error(
      `REMIT_CHECK_IMAGES_S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens), not ${bucket}`,
    );
  if (endpoint !== undefined) {
    let u: URL;
    try {
      u = new URL(endpoint);
    } catch {
      throw new Error(`REMIT_CHECK_IMAGES_S3_ENDPOINT must be an http(s) URL, not ${endpoint}`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      throw new Error(`REMIT_CHECK_IMAGES_S3_ENDPOINT must be an http(s) URL, not ${endpoint}`);
    if (remitEnv === 'production' && u.protocol === 'http:' && !LOOPBACK_HOST.test(u.hostname)) {
      throw new Error(
        `REMIT_CHECK_IMAGES_S3_ENDPOINT must use https in production (or http on this machine only): ${endpoint} would carry the access key's signatures and the check images in clear`,
      );
    }
  }
  if (prefix.startsWith('/')) throw new Error(`REMIT_CHECK_IMAGES_S3_PREFIX must not start with /, not ${prefix}`);
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error(
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither to use the instance role',
    );
  return {
    bucket,
    endpoint,
    region: env.REMIT_CHECK_IMAGES_S3_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
    prefix,
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN?.trim() || undefined }
        : undefined,
  };
}

/** The bucket's store, or undefined: images in the database. */
export function checkImageStoreFromEnv(env: NodeJS.ProcessEnv, remitEnv: Env): CheckImageStore | undefined {
  const settings = checkImageSettingsFromEnv(env, remitEnv);
  return settings ? createS3CheckImageStore(settings) : undefined;
}
