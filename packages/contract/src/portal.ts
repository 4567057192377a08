import * as z from 'zod';

/** `POST /portal/api/credentials` (sandbox only, no authentication): new API credentials. */
export const credentialsSchema = z.object({ client_id: z.string(), secret_key: z.string() });
export type Credentials = z.infer<typeof credentialsSchema>;
