/** Larger texts are refused before parsing. GitHub's description, among the largest published, is 13 MB. */
export const MAX_OPENAPI_BYTES = 64 * 1024 * 1024;

/** Deeper nesting than this is refused: no real document comes close, and a cycle made of YAML aliases would. */
export const MAX_DEPTH = 256;
