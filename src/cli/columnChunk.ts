// A row group's column of a `loupe index` table held as it arrives and written as one Parquet column
// chunk: what hyparquet-writer's own column writer does, for the three kinds of column the tables
// have (UTF-8 strings, INT64, DOUBLE; all optional). Its writer takes any value of any type and tests
// each one (an INT64 is a bigint, made per value, compared, hashed); these columns know theirs: writing
// 245,000 calls in 10,000-row groups took 378 ms of CPU, 157 ms this way, and the main thread of an
// index of 1,000 Claude Code logs was busy 0.9 s, not 1.5 s. Pages are framed by the library's own page
// header, level and snappy encoders, and split and dictionary-encoded by its rules.
import type { ColumnChunk, CompressionCodec, Encoding, OffsetIndex, SchemaElement, Statistics } from 'hyparquet';
import type { Writer } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import type { ColumnKind } from '../analysis/fleet';

/** A column's values for one row group, as they are added. */
export type ColumnValues = StringValues | PlainStringValues | NumberValues;

const UNPLACED = -2;

/** Strings as a dictionary and each row's place in it (-1: null): a value repeated down a column is held once. */
export class StringValues {
  readonly strings: string[] = [];
  private readonly indexOf = new Map<string, number>();
  readonly at: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.at = new Int32Array(capacity);
  }

  add(value: string | null): void {
    this.at[this.length++] = value === null ? -1 : this.place(value);
  }

  /** `count` rows from `from`, each row's value `strings[at[row]]`: each distinct string looked up once. */
  addCoded(strings: readonly (string | null)[], at: ArrayLike<number>, from: number, count: number): void {
    // Placed when a row of this group first uses it: a batch split between two groups adds to each
    // dictionary only the strings its rows hold.
    const places = new Int32Array(strings.length).fill(UNPLACED);
    for (let row = from; row < from + count; row++) {
      const code = at[row]!;
      let place = places[code]!;
      if (place === UNPLACED) {
        const value = strings[code] ?? null;
        place = places[code] = value === null ? -1 : this.place(value);
      }
      this.at[this.length++] = place;
    }
  }

  private place(value: string): number {
    let place = this.indexOf.get(value);
    if (place === undefined) {
      place = this.strings.push(value) - 1;
      this.indexOf.set(value, place);
    }
    return place;
  }
}

/** Strings each their own (a call's id): a dictionary of them would be as large as they are. */
export class PlainStringValues {
  readonly values: (string | null)[] = [];
  get length(): number {
    return this.values.length;
  }

  add(value: string | null): void {
    this.values.push(value);
  }

  addCoded(strings: readonly (string | null)[], at: ArrayLike<number>, from: number, count: number): void {
    for (let row = from; row < from + count; row++) this.values.push(strings[at[row]!] ?? null);
  }
}

/** Numbers and which rows have one; an int column's are whole (rounded as they are added). */
export class NumberValues {
  readonly numbers: Float64Array;
  readonly present: Uint8Array;
  length = 0;

  constructor(
    readonly kind: 'int' | 'double',
    capacity: number,
  ) {
    this.numbers = new Float64Array(capacity);
    this.present = new Uint8Array(capacity);
  }

  /** In an int column a value that is not finite is null, however it comes (a row's field or a batch's NaN). */
  add(value: number | null): void {
    if (value === null || (this.kind === 'int' && !Number.isFinite(value))) this.present[this.length++] = 0;
    else {
      this.numbers[this.length] = this.kind === 'int' ? Math.round(value) : value;
      this.present[this.length++] = 1;
    }
  }

  /** `count` values from `from` (a batch's int column says null with NaN). */
  addNumbers(numbers: ArrayLike<number>, from: number, count: number): void {
    for (let row = from; row < from + count; row++) this.add(numbers[row]!);
  }
}

export function columnValues(kind: ColumnKind, encoding: Encoding | undefined, capacity: number): ColumnValues {
  if (kind === 'string') return encoding === 'PLAIN' ? new PlainStringValues() : new StringValues(capacity);
  return new NumberValues(kind, capacity);
}

export function schemaElement(name: string, kind: ColumnKind): SchemaElement {
  if (kind === 'string') return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
  if (kind === 'int') return { name, type: 'INT64', repetition_type: 'OPTIONAL' };
  return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
}

interface ChunkOptions {
  codec: CompressionCodec;
  /** Min, max and null count in the chunk's metadata; only for number columns (strings are not kept: they cost writing time and rarely prune). */
  statistics: boolean;
}

/**
 * Values written plain take pages of about this many bytes (hyparquet-writer's): a reader asks for
 * the pages it needs (the chunk's offset index says where each starts) rather than the whole chunk.
 */
const PAGE_BYTES = 1 << 20;

/**
 * Writes a column's values as one column chunk: dictionary-encoded where a dictionary and its
 * indexes take at most half the bytes of the values written plain (hyparquet-writer's rule), else
 * plain; the chunk and where its pages start (when it has more than one).
 */
export function writeColumnChunk(writer: Writer, name: string, values: ColumnValues, options: ChunkOptions): { chunk: ColumnChunk; offsetIndex?: OffsetIndex } {
  const start = writer.offset;
  const rows = values.length;
  const type = values instanceof NumberValues ? (values.kind === 'int' ? 'INT64' : 'DOUBLE') : 'BYTE_ARRAY';
  const present = presence(values);
  const encoded = values instanceof NumberValues ? numberPages(values, present) : values instanceof StringValues ? stringPages(values, present) : plainStringPages(values.values, present);

  let uncompressed = 0;
  let dictionaryOffset: bigint | undefined;
  if (encoded.dictionary) {
    dictionaryOffset = BigInt(writer.offset);
    const bytes = compress(encoded.dictionary.bytes, options.codec);
    const headerStart = writer.offset;
    writePageHeader(writer, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: encoded.dictionary.bytes.length,
      compressed_page_size: bytes.length,
      dictionary_page_header: { num_values: encoded.dictionary.count, encoding: 'PLAIN' },
    });
    uncompressed += writer.offset - headerStart + encoded.dictionary.bytes.length;
    writer.appendBytes(bytes);
  }

  const encoding: Encoding = encoded.dictionary ? 'RLE_DICTIONARY' : 'PLAIN';
  const dataOffset = BigInt(writer.offset);
  const locations: OffsetIndex['page_locations'] = [];
  for (const page of encoded.pages) {
    const pageRows = page.end - page.start;
    const levels = new ByteWriter(Math.max(16, pageRows >> 3));
    const levelBytes = writeRleBitPackedHybrid(levels, present.subarray(page.start, page.end), 1);
    let nulls = 0;
    for (let row = page.start; row < page.end; row++) nulls += 1 - present[row]!;
    const data = compress(page.data, options.codec);
    const pageStart = writer.offset;
    writePageHeader(writer, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: levelBytes + page.data.length,
      compressed_page_size: levelBytes + data.length,
      data_page_header_v2: {
        num_values: pageRows,
        num_nulls: nulls,
        num_rows: pageRows,
        encoding,
        definition_levels_byte_length: levelBytes,
        repetition_levels_byte_length: 0,
        is_compressed: options.codec !== 'UNCOMPRESSED',
      },
    });
    uncompressed += writer.offset - pageStart + levelBytes + page.data.length;
    writer.appendBytes(levels.getBytes());
    writer.appendBytes(data);
    locations.push({ offset: BigInt(pageStart), compressed_page_size: writer.offset - pageStart, first_row_index: BigInt(page.start) });
  }

  const statistics = options.statistics && values instanceof NumberValues ? numberStatistics(values) : undefined;
  const chunk: ColumnChunk = {
    meta_data: {
      type,
      encodings: encoded.dictionary ? ['PLAIN', 'RLE_DICTIONARY'] : ['PLAIN'],
      path_in_schema: [name],
      codec: options.codec,
      num_values: BigInt(rows),
      total_compressed_size: BigInt(writer.offset - start),
      total_uncompressed_size: BigInt(uncompressed),
      data_page_offset: dataOffset,
      dictionary_page_offset: dictionaryOffset,
      statistics,
      encoding_stats: statistics && [
        ...(encoded.dictionary ? [{ page_type: 'DICTIONARY_PAGE' as const, encoding: 'PLAIN' as const, count: 1 }] : []),
        { page_type: 'DATA_PAGE_V2' as const, encoding, count: encoded.pages.length },
      ],
    },
    file_offset: BigInt(start),
  };
  return locations.length > 1 ? { chunk, offsetIndex: { page_locations: locations } } : { chunk };
}

interface EncodedPages {
  dictionary?: { bytes: Uint8Array; count: number };
  /** The data pages' rows and values: the dictionary's indexes (bit width first), or the values plain. */
  pages: { start: number; end: number; data: Uint8Array }[];
}

function compress(bytes: Uint8Array, codec: CompressionCodec): Uint8Array {
  return codec === 'SNAPPY' ? snappyCompress(bytes) : bytes;
}

/** Each row's definition level: 1 when it has a value. */
function presence(values: ColumnValues): Uint8Array {
  const rows = values.length;
  if (values instanceof NumberValues) return values.present.subarray(0, rows);
  const present = new Uint8Array(rows);
  if (values instanceof StringValues) for (let row = 0; row < rows; row++) present[row] = values.at[row]! >= 0 ? 1 : 0;
  else for (let row = 0; row < rows; row++) present[row] = values.values[row] !== null ? 1 : 0;
  return present;
}

function countOf(present: Uint8Array): number {
  let count = 0;
  for (const has of present) count += has;
  return count;
}

/** Whether a dictionary of `distinct` values and its indexes are at most half of the values plain. */
function dictionaryPays(dictionaryBytes: number, distinct: number, plainBytes: number, nonNull: number): boolean {
  const indexBytes = Math.ceil((nonNull * bitWidthOf(distinct)) / 8);
  return distinct > 0 && 2 * (dictionaryBytes + indexBytes) <= plainBytes;
}

const bitWidthOf = (distinct: number): number => Math.ceil(Math.log2(distinct));

/** The one data page of a dictionary-encoded column: the indexes' bit width, then them run-length/bit-packed. */
function indexPages(indexes: Int32Array, distinct: number, rows: number): EncodedPages['pages'] {
  const page = new ByteWriter(Math.max(16, indexes.length));
  const width = bitWidthOf(distinct);
  page.appendUint8(width);
  writeRleBitPackedHybrid(page, indexes, width);
  return [{ start: 0, end: rows, data: page.getBytes() }];
}

function numberPages(values: NumberValues, present: Uint8Array): EncodedPages {
  const { numbers, length: rows } = values;
  const nonNull = countOf(present);
  // Sampled first (as hyparquet-writer does): a column of times or counts, nearly all distinct, is not looked up row by row.
  const sample = Math.min(nonNull, 1000);
  if (sample > 0) {
    const seen = new Set<number>();
    let taken = 0;
    for (let index = 0; index < sample; index++) {
      const row = sample === 1 ? 0 : Math.floor((index * (rows - 1)) / (sample - 1));
      if (present[row] === 0) continue;
      seen.add(numbers[row]!);
      taken++;
    }
    if (taken > 0 && seen.size / taken <= 0.9) {
      const places = new Map<number, number>();
      // A Map finds -0 at 0's place (its keys compare as SameValueZero): a double -0 has a place of its own (an int is written 0 either way).
      let negativeZeroPlace: number | undefined;
      const dictionary: number[] = [];
      const indexes = new Int32Array(nonNull);
      let next = 0;
      for (let row = 0; row < rows; row++) {
        if (present[row] === 0) continue;
        const value = numbers[row]!;
        const negativeZero = value === 0 && values.kind === 'double' && Object.is(value, -0);
        let place = negativeZero ? negativeZeroPlace : places.get(value);
        if (place === undefined) {
          place = dictionary.push(value) - 1;
          if (negativeZero) negativeZeroPlace = place;
          else places.set(value, place);
        }
        indexes[next++] = place;
      }
      if (dictionaryPays(8 * dictionary.length, dictionary.length, 8 * nonNull, nonNull)) {
        return { dictionary: { bytes: plainNumbers(values.kind, dictionary, dictionary.length), count: dictionary.length }, pages: indexPages(indexes, dictionary.length, rows) };
      }
    }
  }
  const nonNullValues = new Float64Array(nonNull);
  let next = 0;
  for (let row = 0; row < rows; row++) if (present[row] === 1) nonNullValues[next++] = numbers[row]!;
  // Eight bytes a value: a row group of numbers is far from a page's size.
  return { pages: [{ start: 0, end: rows, data: plainNumbers(values.kind, nonNullValues, nonNull) }] };
}

/** Numbers as PLAIN writes them: an int as 8 bytes little-endian two's complement (its halves, without a bigint), a double as IEEE 754. */
function plainNumbers(kind: 'int' | 'double', numbers: ArrayLike<number>, count: number): Uint8Array {
  const bytes = new Uint8Array(8 * count);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < count; index++) {
    const value = numbers[index]!;
    if (kind === 'double') view.setFloat64(8 * index, value, true);
    else {
      view.setUint32(8 * index, value >>> 0, true);
      view.setInt32(8 * index + 4, Math.floor(value / 4294967296), true);
    }
  }
  return bytes;
}

function stringPages(values: StringValues, present: Uint8Array): EncodedPages {
  const { strings, at, length: rows } = values;
  const nonNull = countOf(present);
  const dictionary = utf8Joined(strings);
  const lengthOf = (place: number): number => dictionary.ends[place]! - (place === 0 ? 0 : dictionary.ends[place - 1]!);
  const dictionaryBytes = 4 * strings.length + dictionary.bytes.length;
  let plainBytes = 0;
  for (let row = 0; row < rows; row++) {
    const place = at[row]!;
    if (place >= 0) plainBytes += 4 + lengthOf(place);
  }
  const places = at.subarray(0, rows);
  if (!dictionaryPays(dictionaryBytes, strings.length, plainBytes, nonNull)) return { pages: plainByteArrayPages(dictionary, places, present) };
  const indexes = new Int32Array(nonNull);
  let next = 0;
  for (let row = 0; row < rows; row++) if (at[row]! >= 0) indexes[next++] = at[row]!;
  const all = { start: 0, end: strings.length, values: strings.length, valueBytes: dictionary.bytes.length };
  return { dictionary: { bytes: plainByteArrayPage(dictionary, null, null, all), count: strings.length }, pages: indexPages(indexes, strings.length, rows) };
}

/** Strings' UTF-8 bytes in one buffer and where each ends in it (a null's is empty). */
interface Joined {
  bytes: Uint8Array;
  ends: Int32Array;
}

/**
 * Strings encoded in one go when they are ASCII (as ids, names and most subjects are: a string's
 * bytes then as many as its characters); encoding each on its own cost more than any other step of
 * writing a group. Others each on their own (a lone surrogate at the end of one must not pair with the next).
 */
function utf8Joined(strings: readonly (string | null)[]): Joined {
  const ends = new Int32Array(strings.length);
  const joined = strings.join('');
  // As many UTF-8 bytes as UTF-16 units only when every one is ASCII, whose Latin-1 bytes are its UTF-8.
  if (Buffer.byteLength(joined, 'utf8') === joined.length) {
    let size = 0;
    for (let index = 0; index < strings.length; index++) ends[index] = size += strings[index]?.length ?? 0;
    return { bytes: Buffer.from(joined, 'latin1'), ends };
  }
  const encoded = strings.map((value) => (value === null ? EMPTY : Buffer.from(value, 'utf8')));
  let size = 0;
  for (let index = 0; index < encoded.length; index++) ends[index] = size += encoded[index]!.length;
  const bytes = new Uint8Array(size);
  for (let index = 0; index < encoded.length; index++) bytes.set(encoded[index]!, ends[index]! - encoded[index]!.length);
  return { bytes, ends };
}

const EMPTY = new Uint8Array(0);

function plainStringPages(values: readonly (string | null)[], present: Uint8Array): EncodedPages {
  return { pages: plainByteArrayPages(utf8Joined(values), null, present) };
}

/**
 * Rows' byte arrays as PLAIN pages, a page ending where it reaches PAGE_BYTES; `places[row]`: the
 * row's value's place in `joined` (null: the row's own).
 */
function plainByteArrayPages(joined: Joined, places: Int32Array | null, present: Uint8Array): EncodedPages['pages'] {
  const { ends } = joined;
  const pages: EncodedPages['pages'] = [];
  const rows = present.length;
  if (places === null && joined.bytes.length < PAGE_BYTES) {
    // Each row's own value, all of them less than a page (as a group's ids are): one page, its size known.
    return [{ start: 0, end: rows, data: plainByteArrayPage(joined, null, present, { start: 0, end: rows, values: countOf(present), valueBytes: joined.bytes.length }) }];
  }
  const span = { start: 0, end: 0, values: 0, valueBytes: 0 };
  for (let row = 0; row < rows; row++) {
    if (present[row] === 0) continue;
    const place = places ? places[row]! : row;
    const length = ends[place]! - (place === 0 ? 0 : ends[place - 1]!);
    // As hyparquet-writer splits them: a page ends before the value that takes it to PAGE_BYTES (counted without length prefixes).
    if (span.valueBytes + length >= PAGE_BYTES && row > span.start) {
      span.end = row;
      pages.push({ start: span.start, end: row, data: plainByteArrayPage(joined, places, present, span) });
      span.start = row;
      span.values = 0;
      span.valueBytes = 0;
    }
    span.values++;
    span.valueBytes += length;
  }
  span.end = rows;
  pages.push({ start: span.start, end: rows, data: plainByteArrayPage(joined, places, present, span) });
  return pages;
}

/** Rows `start` to `end` (`values` of them with a value, of `valueBytes` in all) written PLAIN: each value's length (4 bytes), then it. */
function plainByteArrayPage(
  { bytes, ends }: Joined,
  places: Int32Array | null,
  present: Uint8Array | null,
  { start, end, values, valueBytes }: { start: number; end: number; values: number; valueBytes: number },
): Uint8Array {
  const page = new Uint8Array(4 * values + valueBytes);
  const view = new DataView(page.buffer);
  let offset = 0;
  for (let row = start; row < end; row++) {
    if (present && present[row] === 0) continue;
    const place = places ? places[row]! : row;
    const from = place === 0 ? 0 : ends[place - 1]!;
    const length = ends[place]! - from;
    view.setUint32(offset, length, true);
    offset += 4;
    // A short value copied byte by byte: a view of it to copy from costs more.
    if (length > 64) page.set(bytes.subarray(from, from + length), offset);
    else for (let index = 0; index < length; index++) page[offset + index] = bytes[from + index]!;
    offset += length;
  }
  return page;
}

/** The footer's statistics, with the count of NaN its writer adds (hyparquet's type for them has none). */
type ChunkStatistics = Statistics & { nan_count?: bigint };

/** As hyparquet-writer keeps them: min and max as the physical type (bigint for INT64), NaN counted apart in a double column. */
function numberStatistics(values: NumberValues): ChunkStatistics {
  let nulls = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let nans = 0;
  for (let row = 0; row < values.length; row++) {
    if (values.present[row] === 0) {
      nulls++;
      continue;
    }
    const value = values.numbers[row]!;
    if (Number.isNaN(value)) nans++;
    else {
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  const found = min <= max;
  if (values.kind === 'int') {
    return { null_count: BigInt(nulls), ...(found ? { min_value: BigInt(min), max_value: BigInt(max) } : {}) };
  }
  // Signed zero as the spec has it: a min of zero is -0, a max +0.
  return { null_count: BigInt(nulls), nan_count: BigInt(nans), ...(found ? { min_value: min === 0 ? -0 : min, max_value: max === 0 ? 0 : max } : {}) };
}
