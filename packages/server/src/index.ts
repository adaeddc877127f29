export { type AppOptions, buildApp, DEFAULT_BODY_LIMIT } from './app';
export { createOidcVerifier, oidcVerifierFor } from './auth/oidc';
export { DEMO_DOMAIN, type ProvisionedUser, type ProvisionResult, provisionUsers } from './auth/provision';
export { type ConfiguredSecrets, type SecretSource, signingSecrets } from './auth/signing-secrets';
export { parseUserOption, type UserRequest } from './auth/users';
export {
  apiOrigin,
  type ClientOptions,
  type CspOptions,
  contentSecurityPolicy,
  isReservedPath,
  PLAYGROUND_PATH,
  registerClient,
  securityHeaders,
  signInOption,
  wantsClientPage,
} from './client';
export { contractDocument } from './contract';
export {
  type ProxiedPath,
  type ProxyTarget,
  parseProxyTarget,
  proxiedPath,
  proxyRequestHeaders,
  proxyResponseHeaders,
  registerDevProxy,
  rewriteLocation,
  rewriteSetCookie,
} from './dev-proxy';
export {
  DEV_DEFAULT_PORT,
  type DevApi,
  type DevFront,
  type DevIssue,
  type DevServer,
  type DevServerOptions,
  type DevUpdate,
  LIVE_RELOAD_PATH,
  startDevServer,
} from './dev-server';
export { isLogLevel, LOG_LEVELS, type LogLevel, REQUEST_ID_HEADER } from './operations/request-log';
export { createMailer, type LinkMail, type Mailer, smtpSettings } from './people/mailer';
export { PROBLEM_CONTENT_TYPE, type Problem, problem } from './problem';
export { generateRecords } from './seed/generate-records';
export {
  DEFAULT_PORT,
  databaseProblem,
  databaseUrl,
  describeDatabase,
  openPrototypeStore,
  type RunningServer,
  type ServeOptions,
  serve,
} from './serve';
export { migrationBetween } from './store/migrate';
export { openStore } from './store/open-store';
export type {
  ListQuery,
  ListResult,
  MigrationResult,
  MigrationStep,
  Store,
  StoredRecord,
} from './store/store';
