'use strict';
// `require('@remit/sdk')`: the package is an ES module. Node 20.19+ and 22.12+ load ES modules with
// require(); on a Node that cannot, say what to do instead of a bare ERR_REQUIRE_ESM.
try {
  module.exports = require('./index.js');
} catch (e) {
  if (e && (e.code === 'ERR_REQUIRE_ESM' || e.code === 'ERR_REQUIRE_ASYNC_MODULE')) {
    throw new Error(
      "@remit/sdk is an ES module. Use `import { Remit } from '@remit/sdk'`, or from CommonJS `const { Remit } = await import('@remit/sdk')`; require() loads it on Node 20.19+ and 22.12+.",
      { cause: e },
    );
  }
  throw e;
}
