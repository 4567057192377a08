// Builds dist/ (see scripts/build-wrapper.mjs): React stays an import; src/index.ts's 'use client' must head dist/index.js.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWrapper } from '../../../scripts/build-wrapper.mjs';

await buildWrapper(join(dirname(fileURLToPath(import.meta.url)), '..'), {
  framework: ['react', 'react-dom'],
  directive: 'use client',
});
