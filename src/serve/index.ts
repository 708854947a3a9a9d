// Public surface of the serve stage: the REST API, its event stream and the dashboard
// over one store (docs/api.md), and the token rules.
export { isLoopback, newToken } from './auth.js';
export { INTERNAL_CODE } from './errors.js';
export { openApi } from './openapi.js';
export {
  DEFAULT_SERVE_HOST,
  DEFAULT_SERVE_PORT,
  parseServeOptions,
  type ServeOptions,
  type ServeOptionsInput,
  serveOptionsSchema,
} from './options.js';
export { type Server, type StartServerInput, startServer } from './server.js';
export type { StatusBody } from './status.js';
