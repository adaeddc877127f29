// Loaded only when an answer is not an RFC 9457 problem (problem-reader.ts): the rule is the core's.
export { type ErrorShape, readErrorShape } from '@ninefold/model';
