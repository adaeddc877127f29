import {
  API_BASE,
  boundsOf,
  type Call,
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FieldError,
  type FieldType,
  fieldLabel,
  findEntity,
  formatAmount,
  hasNumericKey,
  type JsonValue,
  type Model,
  toBytes,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { refuseDeepBody } from './body-depth';
import { clip, ProblemError, problem } from './problem';
import type { Store, StoredRecord } from './store/store';

/**
 * Where stored files are served, below the API's base: `GET /api/_files/{id}`. The underscore keeps it
 * clear of call paths.
 */
export function filesPath(base: string = API_BASE): string {
  return `${base}/_files`;
}

/** The largest file a file field without a size bound (point 5) takes. */
export const DEFAULT_FILE_LIMIT = 10 * 1024 * 1024;
/** The most files a list-of-files field takes when point 5 gives no count. */
const DEFAULT_FILES_PER_LIST = 20;
/** Room for a few unknown fields, so that validation can name them rather than the parser refuse. */
const EXTRA_FIELDS = 20;

/** A file part read into memory, waiting for the record to pass validation before it is stored. */
export interface PendingFile {
  field: string;
  /** Its place in a list-of-files field. */
  index?: number;
  name: string;
  type: string;
  bytes: Buffer;
}

export interface RequestBody {
  /** Field values; a file is a descriptor `{ name, type, size }` until `saveFiles` adds `id` and `url`. */
  values: StoredRecord;
  files: PendingFile[];
  /** Files over the API's own size limit, reported with the validation errors. */
  errors: FieldError[];
}

export interface BodyLimits {
  /** Largest text part, in bytes (the JSON body limit). */
  fieldSize: number;
  /** Largest file for fields whose size point 5 does not bound. */
  fileLimit: number;
}

/**
 * Reads a write's body the way its call is encoded. JSON is read for every call, as before; a `form`
 * call also takes `application/x-www-form-urlencoded`, a `multipart` call `multipart/form-data`. Text
 * parts are read back by the field's kind (the client's convention, see docs/prototype-api.md): an empty
 * part is null; numbers, booleans and numeric references are parsed; objects, lists and file fields hold
 * JSON; text that does not parse is kept as it is, for `validateRecord` to refuse with a pointer.
 */
export async function readRequestBody(
  model: Model,
  call: Call,
  entity: Entity,
  request: FastifyRequest,
  limits: BodyLimits,
): Promise<RequestBody> {
  const encoding = call.body?.encoding ?? 'json';
  if (request.isMultipart()) {
    if (encoding !== 'multipart') throw unsupported(encoding);
    return readMultipart(model, entity, request, limits);
  }
  if (request.body instanceof URLSearchParams) {
    if (encoding !== 'form') throw unsupported(encoding);
    const values: StoredRecord = {};
    for (const [name, text] of request.body) setOnce(values, name, fromText(model, entity, name, text));
    return { values, files: [], errors: [] };
  }
  return { values: bodyObject(request), files: [], errors: [] };
}

/** The 415 for a body in an encoding the call does not take; JSON is always taken. */
function unsupported(encoding: 'json' | 'form' | 'multipart'): ProblemError {
  const accepted = {
    json: 'application/json',
    form: 'application/x-www-form-urlencoded or application/json',
    multipart: 'multipart/form-data or application/json',
  }[encoding];
  return new ProblemError(problem(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted}.`));
}

function bodyObject(request: FastifyRequest): StoredRecord {
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProblemError(
      problem(400, 'BODY_NOT_AN_OBJECT', 'The body must be a JSON object of field values.'),
    );
  }
  return body as StoredRecord;
}

async function readMultipart(
  model: Model,
  entity: Entity,
  request: FastifyRequest,
  limits: BodyLimits,
): Promise<RequestBody> {
  const fileFields = entity.fields.filter((field) => fileKind(field) !== undefined);
  const fileLimits = new Map(
    fileFields.map((field) => [field.name, fileLimit(model, entity, field, limits)]),
  );
  const largest = Math.max(0, ...fileLimits.values());
  const fileCount = fileFields.reduce(
    (sum, field) => sum + (fileKind(field) === 'list' ? filesPerList(model, entity, field) : 1),
    0,
  );
  const values: StoredRecord = {};
  const files: PendingFile[] = [];
  const errors: FieldError[] = [];
  try {
    const parts = request.parts({
      limits: {
        // One byte over the largest limit tells a file that is too large from one that just fits.
        fileSize: largest + 1,
        files: Math.max(1, fileCount),
        fields: entity.fields.length + EXTRA_FIELDS,
        parts: entity.fields.length + EXTRA_FIELDS + fileCount,
        fieldSize: limits.fieldSize,
      },
    });
    for await (const part of parts) {
      const name = part.fieldname;
      if (part.type === 'field') {
        if (part.valueTruncated) {
          throw new ProblemError(
            problem(413, 'BODY_TOO_LARGE', `The value of "${clip(name)}" is larger than this API accepts.`),
          );
        }
        const value =
          typeof part.value === 'string'
            ? fromText(model, entity, name, part.value)
            : (part.value as JsonValue);
        setOnce(values, name, value);
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      // An empty file input of an HTML form sends a nameless, empty part: no file was chosen.
      if (part.filename === '' && size === 0) continue;
      const field = entity.fields.find((candidate) => candidate.name === name);
      const descriptor = { name: fileName(part.filename), type: mediaType(part.mimetype), size };
      const kind = field ? fileKind(field) : undefined;
      if (field && kind === 'list') {
        const list = Array.isArray(values[name]) ? (values[name] as JsonValue[]) : [];
        if (values[name] !== undefined && !Array.isArray(values[name])) throw duplicate(name);
        list.push(descriptor);
        values[name] = list;
        files.push({ field: name, index: list.length - 1, ...descriptor, bytes: Buffer.concat(chunks) });
      } else {
        // A file for a field that takes none is left to validation, which names the field; its bytes go.
        setOnce(values, name, descriptor);
        if (field && kind === 'single')
          files.push({ field: name, ...descriptor, bytes: Buffer.concat(chunks) });
      }
      const limit = fileLimits.get(name);
      if (field && limit !== undefined && (part.file.truncated || size > limit)) {
        errors.push({
          pointer: `/${name}`,
          code: 'max',
          message: `${fieldLabel(field)} must be at most ${formatAmount({ value: limit, unit: 'bytes' })} in size.`,
        });
      }
    }
  } catch (error) {
    if (error instanceof ProblemError || isFrameworkError(error)) throw error;
    // busboy's own errors (no boundary, a broken part header, a body cut short) are the client's.
    throw new ProblemError(problem(400, 'MALFORMED_MULTIPART', 'The body is not valid multipart/form-data.'));
  }
  // Sizes bounded by point 5 are checked by validateRecord on the descriptor; only files that the bound
  // did not catch (none given, or a list's files) are reported from here.
  const bounded = new Set(
    fileFields
      .filter((field) => fileKind(field) === 'single' && sizeBound(model, entity, field))
      .map((f) => f.name),
  );
  return { values, files, errors: errors.filter((error) => !bounded.has(error.pointer.slice(1))) };
}

/**
 * Stores the pending files' bytes and completes their descriptors in `target` with `id` and `url`.
 * Answers the stored ids, so that a write that then fails can forget them again.
 */
export async function saveFiles(
  store: Store,
  files: PendingFile[],
  target: StoredRecord,
  base: string = API_BASE,
): Promise<string[]> {
  const ids: string[] = [];
  try {
    for (const file of files) {
      const id = await store.putFile({ name: file.name, type: file.type, bytes: file.bytes });
      ids.push(id);
      const descriptor = {
        name: file.name,
        type: file.type,
        size: file.bytes.length,
        id,
        url: `${filesPath(base)}/${id}`,
      };
      const current = target[file.field];
      if (file.index !== undefined && Array.isArray(current)) current[file.index] = descriptor;
      else target[file.field] = descriptor;
    }
  } catch (error) {
    await forgetFiles(store, ids);
    throw error;
  }
  return ids;
}

/** Removes files stored for a write that did not happen. */
export async function forgetFiles(store: Store, ids: string[]): Promise<void> {
  for (const id of ids) await store.deleteFile(id).catch(() => undefined);
}

/** Whether any entity has a file field, so the files route is served only when a file can exist. */
export function hasFileFields(model: Model): boolean {
  if (!model.entities.shown) return false;
  const holdsFile = (type: FieldType): boolean =>
    type.kind === 'file' || (type.kind === 'list' && holdsFile(type.of));
  return model.entities.items.some((entity) => entity.fields.some(holdsFile));
}

/**
 * `Content-Disposition: attachment` with the stored name: an ASCII fallback with nothing that could end
 * the quoted string or the header, and the exact name as RFC 8187 UTF-8.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function fileKind(field: Field): 'single' | 'list' | undefined {
  if (field.kind === 'file') return 'single';
  if (field.kind === 'list' && field.of.kind === 'file') return 'list';
  return undefined;
}

function sizeBound(model: Model, entity: Entity, field: Field): number | undefined {
  const max = boundsOf(model, entity.name, [field.name], entity.name).max;
  return max ? toBytes(max) : undefined;
}

function fileLimit(model: Model, entity: Entity, field: Field, limits: BodyLimits): number {
  return (fileKind(field) === 'single' ? sizeBound(model, entity, field) : undefined) ?? limits.fileLimit;
}

function filesPerList(model: Model, entity: Entity, field: Field): number {
  const max = boundsOf(model, entity.name, [field.name], entity.name).max?.value;
  return typeof max === 'number' && max > 0 ? Math.min(max, 1000) : DEFAULT_FILES_PER_LIST;
}

/** A text part as the field's value, by the convention of the client's encoder. */
function fromText(model: Model, entity: Entity, name: string, text: string): JsonValue {
  if (text === '') return null;
  const field = entity.fields.find((candidate) => candidate.name === name);
  if (!field) return text;
  switch (field.kind) {
    case 'text':
    case 'markdown':
    case 'date':
    case 'datetime':
    case 'enum':
      return text;
    case 'number':
    case 'integer':
    case 'money':
      return /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'reference': {
      const target = findEntity(model, field.entity);
      return target && hasNumericKey(target) && /^\d{1,15}$/.test(text) ? Number(text) : text;
    }
    case 'object':
    case 'list':
    case 'file': {
      let parsed: JsonValue;
      try {
        parsed = JSON.parse(text) as JsonValue;
      } catch {
        return text;
      }
      refuseDeepBody(parsed, `The field ${field.name}`);
      return parsed;
    }
    default:
      return exhaustiveSwitchError(field);
  }
}

/** A name given twice would drop one of the values without saying so: refused instead. */
function setOnce(values: StoredRecord, name: string, value: JsonValue): void {
  if (name in Object.prototype) {
    throw new ProblemError(problem(400, 'BAD_REQUEST', 'The request could not be read.'));
  }
  if (Object.hasOwn(values, name)) throw duplicate(name);
  values[name] = value;
}

function duplicate(name: string): ProblemError {
  return new ProblemError(
    problem(400, 'DUPLICATE_FIELD', `"${clip(name)}" is given more than once; send each field once.`),
  );
}

/** The file's own name, without the folders some browsers send, control characters or excess length. */
function fileName(raw: string): string {
  const base = raw.split(/[\\/]/).at(-1) ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return Array.from(clean).slice(0, 255).join('') || 'file';
}

/** The part's media type without parameters; anything that is not one is stored as opaque bytes. */
function mediaType(raw: string): string {
  const essence = (raw.split(';')[0] ?? '').trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence)
    ? essence
    : 'application/octet-stream';
}

function isFrameworkError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('FST_');
}
