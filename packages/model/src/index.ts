export * from './authoring/diff';
export * from './authoring/extension-check';
export { specTypes } from './authoring/spec-types';
export { didYouMean, suggest } from './authoring/suggest';
export * from './authoring/translate';
export * from './authoring/translation-words';
export * from './cel';
export { RECORD_FUNCTIONS, type RecordFunction } from './cel/records';
export * from './check';
export * from './contract/api';
export * from './contract/error-shapes';
export * from './contract/openapi/document';
export { PROBLEM_MEDIA_TYPE, problemType } from './contract/openapi/problems';
export { fieldsEveryNewRecordNeeds } from './contract/openapi/schemas';
export * from './contract/sign-in-answer';
export * from './csv';
export { normalize, toAmount, toFieldType } from './document/normalize';
export { MAX_ALIAS_COUNT, MAX_YAML_DEPTH, readYaml } from './document/read-yaml';
export type { DocumentInput } from './document/schema';
export {
  DOCUMENT_KEYS,
  documentJsonSchema,
  documentSchema,
  NOT_SHOWN_PATTERN,
  notShownReason,
} from './document/schema';
export type { SourceDocument, SpecFormat } from './document/source';
export { toDocument } from './document/write';
export { yamlText } from './document/write-yaml';
export * from './exhaustive';
export * from './issues';
export * from './load';
export * from './lookup';
export { readMarkdown } from './markdown/read';
export {
  MAX_INDENT,
  MAX_MARKDOWN_BYTES,
  MAX_MARKDOWN_LINE,
  MAX_NESTING,
} from './markdown/text-limits';
export { markdownVocabulary, type SectionVocabulary } from './markdown/vocabulary';
export { type MarkdownResult, toMarkdown } from './markdown/write';
export * from './model';
export * from './names';
export * from './rules/brand';
export * from './rules/composite-key';
export * from './rules/condition-data';
export * from './rules/constants';
export * from './rules/demo-links';
export * from './rules/derived';
export { boundsOf, entitySchema, type JsonSchema } from './rules/entity-schema';
export * from './rules/errors';
export * from './rules/figure-access';
export * from './rules/figure-condition';
export * from './rules/figures';
export * from './rules/formats';
export {
  type AccessDenial,
  type AccessVerdict,
  actingRole,
  checkGrant,
  checkScreen,
  type FieldAccess,
  fieldAccess,
  grantFor,
  managesPeople,
  type Principal,
  permissionsApply,
  roleLabel,
  signInRoles,
  transitionGrant,
  visitorRole,
  type WriteViolation,
  writeViolations,
} from './rules/grants';
export * from './rules/messages';
export * from './rules/numbering';
export * from './rules/people';
export * from './rules/permissions';
export * from './rules/present';
export * from './rules/record-words';
export * from './rules/records';
export * from './rules/references';
export { createScreenMatcher, homeScreen, type ScreenMatch, screenAt } from './rules/screen-matcher';
export * from './rules/search';
export * from './rules/sort-param';
export * from './rules/table-messages';
export * from './rules/transitions';
export * from './rules/unique-message';
export * from './rules/update-lock';
export * from './rules/update-refusal';
export * from './rules/updates';
export * from './rules/validate';
export * from './rules/write-plan';
export * from './rules/write-plans';
