// Builds dist/ (see scripts/build-wrapper.mjs): Vue stays an import.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWrapper } from '../../../scripts/build-wrapper.mjs';

await buildWrapper(join(dirname(fileURLToPath(import.meta.url)), '..'), { framework: ['vue'] });
