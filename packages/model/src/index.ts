export * from './cel';
export { RECORD_FUNCTIONS, type RecordFunction } from './cel-records';
export * from './check-model';
export * from './csv';
export * from './diff';
export type { DocumentInput } from './document-schema';
export {
  DOCUMENT_KEYS,
  documentJsonSchema,
  documentSchema,
  NOT_SHOWN_PATTERN,
  notShownReason,
} from './document-schema';
export * from './exhaustive';
export * from './extension-check';
export * from './figure-access';
export * from './figure-condition';
export * from './figures';
export * from './issues';
export * from './load';
export * from './lookup';
export {
  MAX_INDENT,
  MAX_MARKDOWN_BYTES,
  MAX_MARKDOWN_LINE,
  MAX_NESTING,
} from './markdown/text-limits';
export { markdownVocabulary, type SectionVocabulary } from './markdown/vocabulary';
export * from './model';
export * from './names';
export { normalize, toAmount, toFieldType } from './normalize';
export { readMarkdown } from './read-markdown';
export { MAX_ALIAS_COUNT, MAX_YAML_DEPTH, readYaml } from './read-yaml';
export * from './records';
export * from './rules/brand';
export * from './rules/condition-data';
export * from './rules/constants';
export * from './rules/demo-links';
export * from './rules/derived';
export { boundsOf, entitySchema, type JsonSchema } from './rules/entity-schema';
export * from './rules/errors';
export * from './rules/formats';
export {
  type AccessDenial,
  type AccessVerdict,
  checkGrant,
  checkScreen,
  type FieldAccess,
  fieldAccess,
  grantFor,
  type Principal,
  permissionsApply,
  visibleRecord,
  type WriteViolation,
  writeViolations,
} from './rules/grants';
export * from './rules/messages';
export * from './rules/numbering';
export * from './rules/permissions';
export * from './rules/transitions';
export * from './rules/unique-message';
export * from './rules/update-refusal';
export * from './rules/updates';
export * from './rules/validate';
export { createScreenMatcher, homeScreen, type ScreenMatch, screenAt } from './screen-matcher';
export * from './search';
export * from './sort-param';
export type { SourceDocument, SpecFormat } from './source';
export { didYouMean, suggest } from './suggest';
export { toDocument } from './to-document';
export { type MarkdownResult, toMarkdown } from './to-markdown';
export * from './translate';
export * from './translation-words';
