import type { Faker } from '@faker-js/faker';
import type { Entity, JsonValue } from '@ninefold/model';

/** What a text hint may look at besides the faker instance. */
export interface HintContext {
  faker: Faker;
  /** The entity that owns the field (an embedded one for fields of objects). */
  entity: Entity;
  /** The values given so far to the fields before this one in the same object, in field order. */
  siblings: Readonly<Record<string, JsonValue>>;
  /** 0-based position of the top-level record being generated. */
  index: number;
  /** Prefix for sequential numbers, from the top-level entity's name (`ORD` for Order). */
  sequencePrefix: string;
}

/**
 * A realistic value chosen from the field's name or format. Text hints make a string; range hints give
 * the plausible interval of a number (the generator intersects it with the field's bounds); date hints
 * give a window in days relative to `now` (negative: in the past).
 */
export type ValueHint =
  | { kind: 'text'; words: readonly string[]; generate: (context: HintContext) => string }
  | { kind: 'range'; words: readonly string[]; min: number; max: number; step?: number; digits?: number }
  | { kind: 'dates'; words: readonly string[]; fromDays: number; toDays: number };

const PRODUCT_WORDS = ['product', 'item', 'article', 'part', 'good', 'goods', 'sku', 'merchandise'];
const COMPANY_WORDS = [
  'company',
  'organization',
  'organisation',
  'supplier',
  'vendor',
  'business',
  'firm',
  'manufacturer',
  'brand',
  'tenant',
];
const ADDRESS_WORDS = ['street', 'city', 'postcode', 'zip', 'zipcode', 'postalcode'];

// Order matters: the first hint whose words match wins, so specific names come before the general ones
// they contain (`firstName` before `name`, `phoneNumber` before `number`, `emailAddress` before `address`).
const TEXT_HINTS: ValueHint[] = [
  { kind: 'text', words: ['email', 'emailaddress'], generate: email },
  {
    kind: 'text',
    words: ['firstname', 'givenname', 'forename'],
    generate: ({ faker }) => faker.person.firstName(),
  },
  {
    kind: 'text',
    words: ['lastname', 'surname', 'familyname'],
    generate: ({ faker }) => faker.person.lastName(),
  },
  {
    kind: 'text',
    words: ['username', 'login', 'handle'],
    generate: ({ faker }) => faker.internet.username(),
  },
  { kind: 'text', words: ['filename'], generate: ({ faker }) => faker.system.commonFileName('pdf') },
  {
    kind: 'text',
    words: ['company', 'companyname', 'organization', 'organisation', 'employer', 'business'],
    generate: ({ faker }) => faker.company.name(),
  },
  { kind: 'text', words: ['jobtitle', 'occupation'], generate: ({ faker }) => faker.person.jobTitle() },
  // A ship is named as ships are (a ferry line's vessels were "bah yearningly boring"), and whoever
  // organises something is a person, not two random words.
  {
    kind: 'text',
    words: ['vessel', 'ship', 'boat', 'ferry'],
    generate: ({ faker }) => `MV ${faker.location.city()}`,
  },
  {
    kind: 'text',
    words: ['organiser', 'organizer'],
    generate: ({ faker }) => faker.person.fullName(),
  },
  { kind: 'text', words: ['fullname', 'name', 'displayname', 'contact'], generate: nameOfEntity },
  {
    kind: 'text',
    words: ['phone', 'phonenumber', 'telephone', 'mobile', 'tel', 'fax'],
    generate: ({ faker }) => faker.phone.number({ style: 'international' }),
  },
  { kind: 'text', words: ['ip', 'ipaddress'], generate: ({ faker }) => faker.internet.ipv4() },
  {
    kind: 'text',
    words: ['street', 'streetaddress', 'address', 'addressline', 'line1'],
    generate: ({ faker }) => faker.location.streetAddress(),
  },
  { kind: 'text', words: ['city', 'town'], generate: ({ faker }) => faker.location.city() },
  {
    kind: 'text',
    words: ['postcode', 'zip', 'zipcode', 'postalcode', 'postal'],
    generate: ({ faker }) => faker.location.zipCode(),
  },
  { kind: 'text', words: ['countrycode'], generate: ({ faker }) => faker.location.countryCode() },
  { kind: 'text', words: ['country'], generate: country },
  {
    kind: 'text',
    words: ['state', 'region', 'province', 'county'],
    generate: ({ faker }) => faker.location.state(),
  },
  {
    kind: 'text',
    words: ['url', 'website', 'homepage', 'link', 'web'],
    generate: ({ faker }) => faker.internet.url(),
  },
  {
    kind: 'text',
    words: ['avatar', 'image', 'photo', 'picture', 'logo', 'thumbnail'],
    generate: ({ faker }) => faker.image.url(),
  },
  { kind: 'text', words: ['sku'], generate: sku },
  {
    kind: 'text',
    words: ['number', 'reference', 'ref', 'invoicenumber', 'ordernumber'],
    generate: ({ index, sequencePrefix }) => `${sequencePrefix}-${String(index + 1).padStart(6, '0')}`,
  },
  {
    kind: 'text',
    words: ['code', 'barcode', 'ean'],
    generate: ({ faker }) => faker.string.alphanumeric({ length: 8, casing: 'upper' }),
  },
  {
    kind: 'text',
    words: ['title', 'subject', 'headline', 'heading'],
    generate: ({ faker }) => faker.company.catchPhrase(),
  },
  {
    kind: 'text',
    words: [
      'description',
      'notes',
      'note',
      'comment',
      'summary',
      'abstract',
      'synopsis',
      'bio',
      'about',
      'details',
      'body',
      'message',
      'content',
      'remarks',
    ],
    generate: paragraph,
  },
  { kind: 'text', words: ['color', 'colour'], generate: ({ faker }) => faker.color.human() },
  { kind: 'text', words: ['currency'], generate: ({ faker }) => faker.finance.currencyCode() },
  { kind: 'text', words: ['slug'], generate: ({ faker }) => faker.lorem.slug() },
  {
    kind: 'text',
    words: ['password', 'secret', 'passphrase'],
    generate: ({ faker }) => faker.internet.password({ length: 16 }),
  },
  { kind: 'text', words: ['id', 'uuid', 'guid'], generate: ({ faker }) => faker.string.uuid() },
  {
    kind: 'text',
    words: ['tag', 'label', 'keyword', 'category'],
    generate: ({ faker }) => faker.word.adjective(),
  },
];

/** Display formats (`Field.format`) are explicit, so they are asked before the name. */
const TEXT_FORMATS: Record<string, (context: HintContext) => string> = {
  email,
  url: ({ faker }) => faker.internet.url(),
  uri: ({ faker }) => faker.internet.url(),
  phone: ({ faker }) => faker.phone.number({ style: 'international' }),
  tel: ({ faker }) => faker.phone.number({ style: 'international' }),
  uuid: ({ faker }) => faker.string.uuid(),
  color: ({ faker }) => faker.color.rgb(),
  country,
  ipv4: ({ faker }) => faker.internet.ipv4(),
  ipv6: ({ faker }) => faker.internet.ipv6(),
  hostname: ({ faker }) => faker.internet.domainName(),
  // Every other format the API checks (CHECKED_FORMATS) gets a value it accepts, or the seed would write
  // records the API itself refuses to take.
  'uri-reference': ({ faker }) => `/${faker.word.noun()}/${faker.number.int({ min: 1, max: 999 })}`,
  'uri-template': ({ faker }) => `/${faker.word.noun()}/{id}`,
  time: ({ faker }) =>
    `${String(faker.number.int({ min: 0, max: 23 })).padStart(2, '0')}:${faker.helpers.arrayElement(['00', '15', '30', '45'])}:00Z`,
  duration: ({ faker }) => faker.helpers.arrayElement(['PT30M', 'PT1H', 'PT2H', 'P1D', 'P3D', 'P1W']),
  regex: ({ faker }) => `^${faker.word.noun()}-[0-9]+$`,
  'json-pointer': ({ faker }) => `/${faker.word.noun()}/${faker.number.int({ min: 0, max: 9 })}`,
  'relative-json-pointer': ({ faker }) => `${faker.number.int({ min: 0, max: 3 })}/${faker.word.noun()}`,
  byte: ({ faker }) => Buffer.from(faker.word.words({ count: 2 })).toString('base64'),
};

const RANGE_HINTS: ValueHint[] = [
  { kind: 'range', words: ['latitude', 'lat'], min: -90, max: 90, digits: 6 },
  { kind: 'range', words: ['longitude', 'lng', 'lon', 'long'], min: -180, max: 180, digits: 6 },
  { kind: 'range', words: ['age'], min: 18, max: 90, step: 1 },
  { kind: 'range', words: ['rating', 'stars', 'score'], min: 1, max: 5, step: 1 },
  { kind: 'range', words: ['percent', 'percentage', 'discount', 'rate'], min: 0, max: 100, digits: 1 },
  {
    kind: 'range',
    words: ['limit', 'creditlimit', 'budget', 'balance', 'salary', 'revenue', 'credit'],
    min: 1000,
    max: 50_000,
    step: 100,
  },
  {
    kind: 'range',
    words: ['price', 'unitprice', 'amount', 'total', 'subtotal', 'cost', 'fee', 'tax'],
    min: 1,
    max: 1000,
    digits: 2,
  },
  { kind: 'range', words: ['stock', 'count', 'inventory', 'onhand'], min: 0, max: 500, step: 1 },
  { kind: 'range', words: ['duration', 'minutes'], min: 5, max: 240, step: 5 },
  { kind: 'range', words: ['priority', 'rank', 'sort', 'position'], min: 1, max: 100, step: 1 },
  { kind: 'range', words: ['weight'], min: 0.1, max: 50, digits: 1 },
];

/** Quantities of an order line: small, so that a line's total stays plausible. */
const LINE_QUANTITY: ValueHint = { kind: 'range', words: ['quantity', 'qty'], min: 1, max: 5, step: 1 };
const HELD_QUANTITY: ValueHint = { kind: 'range', words: ['quantity', 'qty'], min: 0, max: 500, step: 1 };

const RANGE_FORMATS: Record<string, ValueHint> = {
  percent: { kind: 'range', words: [], min: 0, max: 100, digits: 1 },
};

const DATE_HINTS: ValueHint[] = [
  {
    kind: 'dates',
    words: ['birth', 'birthday', 'birthdate', 'dob', 'born'],
    fromDays: -80 * 365,
    toDays: -18 * 365,
  },
  {
    kind: 'dates',
    words: ['due', 'deadline', 'expires', 'expiry', 'expiration', 'until'],
    fromDays: 0,
    toDays: 365,
  },
];

/** Field name hints for a text or markdown field (format first, then name). */
export function textHint(
  name: string,
  format: string | undefined,
): ((context: HintContext) => string) | undefined {
  const byFormat = format === undefined ? undefined : TEXT_FORMATS[format.toLowerCase()];
  if (byFormat) return byFormat;
  const hint = TEXT_HINTS.find((candidate) => nameMatches(name, candidate.words));
  return hint?.kind === 'text' ? hint.generate : undefined;
}

/** The plausible range of a numeric field, from its format or name; `inLine` is true inside embedded objects. */
export function rangeHint(
  name: string,
  format: string | undefined,
  inLine: boolean,
): Extract<ValueHint, { kind: 'range' }> | undefined {
  const byFormat = format === undefined ? undefined : RANGE_FORMATS[format.toLowerCase()];
  const quantity = inLine ? LINE_QUANTITY : HELD_QUANTITY;
  const hint = byFormat ?? [quantity, ...RANGE_HINTS].find((candidate) => nameMatches(name, candidate.words));
  return hint?.kind === 'range' ? hint : undefined;
}

/** The window of a date field in days around `now`, from its name. */
export function dateHint(name: string): Extract<ValueHint, { kind: 'dates' }> | undefined {
  const hint = DATE_HINTS.find((candidate) => nameMatches(name, candidate.words));
  return hint?.kind === 'dates' ? hint : undefined;
}

/**
 * Whether a field name contains one of the words, compared word by word rather than as a substring so that
 * `paidAt` is not an id, `country` is not a count and `discount` is not a count either. `firstName`,
 * `first_name` and `firstname` all contain `firstname`; a trailing plural `s` is ignored (`emails`).
 */
export function nameMatches(name: string, words: readonly string[]): boolean {
  const parts = nameWords(name);
  for (let start = 0; start < parts.length; start++) {
    let run = '';
    for (let end = start; end < parts.length; end++) {
      run += parts[end];
      if (words.includes(run) || (run.endsWith('s') && words.includes(run.slice(0, -1)))) return true;
    }
  }
  return false;
}

/** `unitPrice` -> `['unit', 'price']`, `ZIP_code` -> `['zip', 'code']`, `HTMLTitle` -> `['html', 'title']`. */
export function nameWords(name: string): string[] {
  const known = WORDS_CACHE.get(name);
  if (known) return known;
  // Field names are few and asked for on every record; the cache is cleared rather than left to grow.
  if (WORDS_CACHE.size > 10_000) WORDS_CACHE.clear();
  const words = splitName(name);
  WORDS_CACHE.set(name, words);
  return words;
}

const WORDS_CACHE = new Map<string, string[]>();

function splitName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part.length > 0);
}

/** Whether an entity's records are goods, so a `name` is a product name and a description sells it. */
export function isProductLike(entity: Entity): boolean {
  return nameMatches(entity.name, PRODUCT_WORDS);
}

function nameOfEntity(context: HintContext): string {
  const { faker, entity } = context;
  if (isProductLike(entity)) return faker.commerce.productName();
  if (nameMatches(entity.name, COMPANY_WORDS)) return faker.company.name();
  if (nameMatches(entity.name, ['category', 'tag', 'label', 'group', 'department'])) {
    return faker.commerce.department();
  }
  if (nameMatches(entity.name, PERSON_WORDS)) return faker.person.fullName();
  if (nameMatches(entity.name, PLACE_WORDS)) return `${faker.location.city()} ${entityWord(entity)}`;
  // Neither a person nor a place (a conference's track, a team, a project): a name, not a person's.
  return `${capitalized(faker.word.adjective())} ${capitalized(faker.word.noun())}`;
}

/** Entities that are people, whose `name` is a person's: a track is not, and was "Miss Roselyn Roberts-Barton". */
const PERSON_WORDS = [
  'person',
  'people',
  'user',
  'member',
  'customer',
  'client',
  'employee',
  'staff',
  'worker',
  'contact',
  'author',
  'speaker',
  'attendee',
  'guest',
  'patient',
  'student',
  'pupil',
  'teacher',
  'instructor',
  'tutor',
  'coach',
  'player',
  'athlete',
  'driver',
  'pilot',
  'skipper',
  'captain',
  'crew',
  'climber',
  'reviewer',
  'owner',
  'manager',
  'agent',
  'volunteer',
  'applicant',
  'candidate',
  'participant',
  'subscriber',
  'patron',
  'borrower',
  'reader',
  'buyer',
  'seller',
  'host',
  'visitor',
  'doctor',
  'nurse',
  'vet',
  'technician',
  'engineer',
  'artist',
  'musician',
  'actor',
  'contributor',
  'friend',
  'parent',
  'child',
  'resident',
  'traveller',
  'traveler',
  'passenger',
  'rider',
  'runner',
  'admin',
  'administrator',
  'operator',
  'assignee',
  'requester',
  'reporter',
  'physician',
  'therapist',
  'trainer',
  'mentor',
  'mentee',
  'lead',
  'developer',
];
const PLACE_WORDS = [
  'venue',
  'room',
  'hall',
  'location',
  'site',
  'store',
  'shop',
  'branch',
  'warehouse',
  'office',
  'harbour',
  'harbor',
  'port',
  'station',
  'clinic',
  'hospital',
  'school',
  'campus',
  'library',
  'gym',
  'park',
  'garden',
  'farm',
  'depot',
  'stadium',
  'theatre',
  'theater',
  'hotel',
  'restaurant',
  'airport',
  'marina',
  'studio',
];

/** The entity's own word for one of its kind, as a place's name ends ("Oslo Harbour"). */
function entityWord(entity: Entity): string {
  return entity.label ?? entity.name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** An address at example.com/.net/.org (never a real mailbox), built from the record's name when it has one. */
function email({ faker, siblings }: HintContext): string {
  const first = stringValue(siblings, ['firstName', 'givenName']);
  const last = stringValue(siblings, ['lastName', 'surname', 'familyName']);
  if (first !== undefined || last !== undefined) {
    return faker.internet.exampleEmail({ firstName: first, lastName: last });
  }
  const full = stringValue(siblings, ['name', 'fullName', 'displayName']);
  const parts = full?.split(' ').filter((part) => /^[A-Za-z'-]+$/.test(part));
  if (parts && parts.length >= 2) {
    return faker.internet.exampleEmail({ firstName: parts[0], lastName: parts[parts.length - 1] });
  }
  return faker.internet.exampleEmail();
}

/** The English locale's addresses are American, so a country next to a street and city says so. */
function country({ faker, entity }: HintContext): string {
  const isAddress = entity.fields.some((field) => nameMatches(field.name, ADDRESS_WORDS));
  return isAddress ? 'United States' : faker.location.country();
}

function sku({ faker }: HintContext): string {
  return `${faker.string.alpha({ length: 3, casing: 'upper' })}-${faker.string.numeric(5)}`;
}

function paragraph(context: HintContext): string {
  const { faker, entity } = context;
  if (isProductLike(entity)) return faker.commerce.productDescription();
  return faker.lorem.sentences({ min: 2, max: 3 });
}

function stringValue(record: Readonly<Record<string, JsonValue>>, names: string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}
