/* The C ABI end to end: open from DDL and from parts, encode batches built by hand through the
 * Arrow C Data Interface, compare with the Rust encoder's records (expected_records.h), re-plan
 * on a dictionary-encoded column, refuse a bad DDL and a wrong Arrow type with their positions,
 * and check that every imported array is released exactly once. The decoder reads those records
 * back into an exported struct array (checked, then released by this program), fails a batch on
 * a malformed record by its index with nothing exported, and collects it when told to. Run by
 * scripts/capi-test.sh (also under valgrind, which reports an export this program leaks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjson.h"
#include "expected_records.h"

static int failures = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            failures++;                                                    \
        }                                                                  \
    } while (0)

/* ---- A hand-built batch: id BIGINT (int64), name STRING (utf8, dictionary, or a wrong int32) */

enum name_encoding { NAME_UTF8, NAME_DICTIONARY, NAME_INT32 };

#define ROWS 3
static const int64_t IDS[ROWS] = {1, 2, 3};
static const uint8_t NAME_VALIDITY[1] = {0x5}; /* rows 0 and 2 */
static const int32_t NAME_OFFSETS[ROWS + 1] = {0, 3, 3, 5};
static const char NAME_DATA[] = "a\"b\xc3\xa9"; /* "a\"b", null, "é" */
static const int32_t DICTIONARY_INDICES[ROWS] = {1, 0, 0};
static const int32_t DICTIONARY_OFFSETS[3] = {0, 2, 5};
static const char DICTIONARY_DATA[] = "\xc3\xa9" "a\"b"; /* "é", "a\"b" */

static int array_releases = 0;
static int schema_releases = 0;

/* Everything one exported batch points into; its own struct so that release can find it. */
struct batch {
    struct ArrowArray array, id, name, dictionary;
    struct ArrowArray *children[2];
    const void *array_buffers[1], *id_buffers[2], *name_buffers[3], *dictionary_buffers[3];
};

static void release_child(struct ArrowArray *array) { array->release = NULL; }

/* The parent's release releases its children, as the interface requires; counts top-level calls. */
static void release_batch(struct ArrowArray *array) {
    struct batch *b = array->private_data;
    for (int i = 0; i < 2; i++) {
        if (b->children[i]->release) b->children[i]->release(b->children[i]);
    }
    if (b->dictionary.release) b->dictionary.release(&b->dictionary);
    array->release = NULL;
    array_releases++;
}

static struct ArrowArray leaf(int64_t null_count, int64_t n_buffers, const void **buffers) {
    struct ArrowArray a = {ROWS, null_count, 0, n_buffers, 0, buffers, NULL, NULL, release_child, NULL};
    return a;
}

static void export_batch(struct batch *b, enum name_encoding encoding) {
    memset(b, 0, sizeof *b);
    b->array_buffers[0] = NULL;
    b->id_buffers[0] = NULL;
    b->id_buffers[1] = IDS;
    b->id = leaf(0, 2, b->id_buffers);
    b->name_buffers[0] = NAME_VALIDITY;
    if (encoding == NAME_UTF8) {
        b->name_buffers[1] = NAME_OFFSETS;
        b->name_buffers[2] = NAME_DATA;
        b->name = leaf(1, 3, b->name_buffers);
    } else {
        b->name_buffers[1] = DICTIONARY_INDICES;
        b->name = leaf(1, 2, b->name_buffers);
    }
    if (encoding == NAME_DICTIONARY) {
        b->dictionary_buffers[1] = DICTIONARY_OFFSETS;
        b->dictionary_buffers[2] = DICTIONARY_DATA;
        b->dictionary = leaf(0, 3, b->dictionary_buffers);
        b->dictionary.length = 2;
        b->name.dictionary = &b->dictionary;
    }
    b->children[0] = &b->id;
    b->children[1] = &b->name;
    struct ArrowArray top = {ROWS, 0, 0, 1, 2, b->array_buffers, b->children, NULL, release_batch, b};
    b->array = top;
}

/* The schema: the caller's to release (kjson only reads it). */
struct schema {
    struct ArrowSchema schema, id, name, dictionary;
    struct ArrowSchema *children[2];
};

static void release_schema_child(struct ArrowSchema *schema) { schema->release = NULL; }

static void release_schema(struct ArrowSchema *schema) {
    struct schema *s = schema->private_data;
    s->id.release = NULL;
    s->name.release = NULL;
    s->dictionary.release = NULL;
    schema->release = NULL;
    schema_releases++;
}

static struct ArrowSchema field(const char *format, const char *name, int64_t flags) {
    struct ArrowSchema f = {format, name, NULL, flags, 0, NULL, NULL, release_schema_child, NULL};
    return f;
}

static void export_schema(struct schema *s, enum name_encoding encoding) {
    memset(s, 0, sizeof *s);
    /* The dictionary batch also declares `id` nullable: nullability changes, types stay. */
    s->id = field("l", "id", encoding == NAME_DICTIONARY ? ARROW_FLAG_NULLABLE : 0);
    s->name = field(encoding == NAME_UTF8 ? "u" : "i", "name", ARROW_FLAG_NULLABLE);
    if (encoding == NAME_DICTIONARY) {
        s->dictionary = field("u", NULL, ARROW_FLAG_NULLABLE);
        s->name.dictionary = &s->dictionary;
    }
    s->children[0] = &s->id;
    s->children[1] = &s->name;
    struct ArrowSchema top = {"+s", "", NULL, 0, 2, s->children, NULL, release_schema, s};
    s->schema = top;
}

/* ---- Checks */

static void check_slab(const char *side, const KjsonSlab *slab, const struct expected_record *expected) {
    CHECK(slab->count == ROWS, "%s: %zu records", side, slab->count);
    for (size_t row = 0; row < ROWS && row < slab->count; row++) {
        int32_t length = slab->lengths[row];
        CHECK(length == expected[row].length, "%s row %zu: length %d, expected %d", side, row, length,
              expected[row].length);
        if (length >= 0 && length == expected[row].length) {
            const char *bytes = (const char *)slab->bytes + slab->offsets[row];
            CHECK(memcmp(bytes, expected[row].bytes, (size_t)length) == 0, "%s row %zu: %.*s, expected %s", side,
                  row, length, bytes, expected[row].bytes);
        }
    }
}

static const int8_t ROW_KINDS[ROWS] = {0, 3, 2}; /* +I, -D (a tombstone), +U */

/* Encodes one batch with its encoding and checks the records and the single release. */
static void encode_and_check(KjsonHandle handle, enum name_encoding encoding, const char *what) {
    struct batch b;
    struct schema s;
    export_batch(&b, encoding);
    export_schema(&s, encoding);
    int before = array_releases;
    KjsonRecords records;
    KjsonStatus status = kjson_encode(handle, &b.array, &s.schema, ROW_KINDS, ROWS, &records);
    CHECK(status == KJSON_STATUS_OK, "%s: status %d: %s", what, status, kjson_error(handle));
    CHECK(array_releases == before + 1, "%s: array released %d times", what, array_releases - before);
    CHECK(b.array.release == NULL, "%s: the caller's struct is not marked moved", what);
    CHECK(schema_releases == 0, "%s: kjson released the schema", what);
    if (status == KJSON_STATUS_OK) {
        check_slab("keys", &records.keys, EXPECTED_KEYS);
        check_slab("values", &records.values, EXPECTED_VALUES);
    }
    s.schema.release(&s.schema);
    schema_releases = 0;
}

static void wrong_type_is_refused_and_released_once(KjsonHandle handle) {
    struct batch b;
    struct schema s;
    export_batch(&b, NAME_INT32);
    export_schema(&s, NAME_INT32);
    int before = array_releases;
    KjsonRecords records;
    KjsonStatus status = kjson_encode(handle, &b.array, &s.schema, NULL, 0, &records);
    CHECK(status == KJSON_STATUS_REFUSED, "status %d", status);
    const char *error = kjson_error(handle);
    CHECK(strstr(error, "column `name`") != NULL && strstr(error, "Int32") != NULL, "error: %s", error);
    CHECK(array_releases == before + 1, "refused array released %d times", array_releases - before);
    CHECK(records.keys.count == 0 && records.values.count == 0, "records left after an error");
    s.schema.release(&s.schema);
    schema_releases = 0;
}

static void bad_ddl_names_the_position(void) {
    KjsonHandle handle = 42;
    KjsonStatus status = kjson_open_ddl("CREATE TABLE t (id BIGINT,\n  name STRNG) WITH ('connector' = 'kafka')",
                                        NULL, NULL, &handle);
    CHECK(status == KJSON_STATUS_REFUSED, "status %d", status);
    CHECK(handle == 0, "handle %llu after a failed open", (unsigned long long)handle);
    const char *error = kjson_error(0);
    CHECK(strstr(error, "line 2, column") != NULL && strstr(error, "STRNG") != NULL, "error: %s", error);
    printf("bad DDL: %s\n", error);
}

static void bad_arguments_are_errors(KjsonHandle closed) {
    KjsonHandle handle;
    CHECK(kjson_open_ddl(NULL, NULL, NULL, &handle) == KJSON_STATUS_INVALID_ARGUMENT, "NULL ddl");
    CHECK(kjson_open_ddl(EXPECTED_DDL, "9.9", NULL, &handle) == KJSON_STATUS_INVALID_ARGUMENT, "bad version");
    CHECK(strstr(kjson_error(0), "'9.9'") != NULL, "error: %s", kjson_error(0));
    CHECK(kjson_open_parts(NULL, NULL, NULL, &handle) == KJSON_STATUS_INVALID_ARGUMENT, "NULL parts");
    CHECK(kjson_close(closed) == KJSON_STATUS_INVALID_ARGUMENT, "second close");
    CHECK(kjson_close(0) == KJSON_STATUS_INVALID_ARGUMENT, "close of handle 0");

    /* A closed handle still takes, and releases, the array. */
    struct batch b;
    struct schema s;
    export_batch(&b, NAME_UTF8);
    export_schema(&s, NAME_UTF8);
    int before = array_releases;
    KjsonRecords records;
    CHECK(kjson_encode(closed, &b.array, &s.schema, NULL, 0, &records) == KJSON_STATUS_INVALID_ARGUMENT,
          "encode on a closed handle");
    CHECK(strstr(kjson_error(closed), "unknown handle") != NULL, "error: %s", kjson_error(closed));
    CHECK(array_releases == before + 1, "array released %d times on a closed handle", array_releases - before);
    CHECK(kjson_encode(closed, NULL, NULL, NULL, 0, NULL) == KJSON_STATUS_INVALID_ARGUMENT, "all NULL");
    s.schema.release(&s.schema);
    schema_releases = 0;
}

static const KjsonColumn PARTS_COLUMNS[2] = {{"id", "BIGINT NOT NULL"}, {"name", "STRING"}};
static const KjsonOption PARTS_OPTIONS[3] = {
    {"connector", "upsert-kafka"}, {"key.format", "json"}, {"value.format", "json"}};

static KjsonHandle open_from_parts(void) {
    const char *primary_key[1] = {"id"};
    KjsonSinkParts parts = {"t", PARTS_COLUMNS, 2, primary_key, 1, PARTS_OPTIONS, 3};
    KjsonHandle handle = 0;
    KjsonStatus status = kjson_open_parts(&parts, "2.2", "jdk17", &handle);
    CHECK(status == KJSON_STATUS_OK, "open from parts: %s", kjson_error(0));
    return handle;
}

/* The connector's rules apply to parts as to a DDL: upsert-kafka needs a primary key. */
static void parts_without_primary_key_are_refused(void) {
    KjsonSinkParts parts = {NULL, PARTS_COLUMNS, 2, NULL, 0, PARTS_OPTIONS, 3};
    KjsonHandle handle = 1;
    CHECK(kjson_open_parts(&parts, NULL, NULL, &handle) != KJSON_STATUS_OK, "upsert-kafka without a primary key");
    CHECK(handle == 0, "handle %llu after a failed open", (unsigned long long)handle);
    const char *error = kjson_error(0);
    CHECK(strstr(error, "require to define a PRIMARY KEY") != NULL, "error: %s", error);
}

/* ---- The decoder: the expected records read back */

/* A side's slab built from expected records; `bad` (when >= 0) replaces that record's bytes. */
struct side {
    char bytes[256];
    int32_t offsets[ROWS], lengths[ROWS];
    KjsonSlab slab;
};

static void build_side(struct side *side, const struct expected_record *records, int bad, const char *replacement) {
    size_t at = 0;
    for (int i = 0; i < ROWS; i++) {
        const char *bytes = i == bad ? replacement : records[i].bytes;
        int32_t length = i == bad ? (int32_t)strlen(replacement) : records[i].length;
        side->offsets[i] = (int32_t)at;
        side->lengths[i] = length;
        if (length > 0) {
            memcpy(side->bytes + at, bytes, (size_t)length);
            at += (size_t)length;
        }
    }
    KjsonSlab slab = {(const uint8_t *)side->bytes, at, side->offsets, side->lengths, ROWS};
    side->slab = slab;
}

static void release_exports(struct ArrowArray *array, struct ArrowSchema *schema) {
    if (array->release) array->release(array);
    CHECK(array->release == NULL, "the array's release did not mark it released");
    if (schema->release) schema->release(schema);
    CHECK(schema->release == NULL, "the schema's release did not mark it released");
}

static void decode_reads_the_records_back(void) {
    KjsonHandle decoder = 0;
    CHECK(kjson_decoder_open_ddl(EXPECTED_DDL, NULL, NULL, &decoder) == KJSON_STATUS_OK, "open decoder: %s",
          kjson_error(0));
    struct side keys, values;
    build_side(&keys, EXPECTED_KEYS, -1, NULL);
    build_side(&values, EXPECTED_VALUES, -1, NULL);
    struct ArrowArray array;
    struct ArrowSchema schema;
    KjsonDecodeErrors errors;
    KjsonStatus status = kjson_decode(decoder, &keys.slab, &values.slab, &array, &schema, &errors);
    CHECK(status == KJSON_STATUS_OK, "decode: status %d: %s", status, kjson_error(decoder));
    if (status == KJSON_STATUS_OK) {
        CHECK(array.length == ROWS && array.n_children == 4, "decoded %lld rows, %lld columns",
              (long long)array.length, (long long)array.n_children);
        CHECK(strcmp(schema.format, "+s") == 0 && schema.n_children == 4, "schema %s", schema.format);
        const char *names[4] = {"id", "name", "__row_kind", "__record"};
        for (int c = 0; c < 4 && c < schema.n_children; c++) {
            CHECK(strcmp(schema.children[c]->name, names[c]) == 0, "column %d is %s", c, schema.children[c]->name);
        }
        CHECK(errors.count == 0, "%zu failed records", errors.count);
        if (array.length == ROWS && array.n_children == 4) {
            const int64_t *ids = array.children[0]->buffers[1];
            const int8_t *kinds = array.children[2]->buffers[1];
            const int32_t *records = array.children[3]->buffers[1];
            /* The tombstone of key 2 reads as a DELETE (3) of that key; the others as inserts. */
            const int8_t expected_kinds[ROWS] = {0, 3, 0};
            for (int r = 0; r < ROWS; r++) {
                CHECK(ids[array.children[0]->offset + r] == IDS[r], "row %d: id %lld", r, (long long)ids[r]);
                CHECK(kinds[array.children[2]->offset + r] == expected_kinds[r], "row %d: row kind %d", r, kinds[r]);
                CHECK(records[array.children[3]->offset + r] == r, "row %d: record %d", r, records[r]);
            }
            const struct ArrowArray *name = array.children[1];
            const int32_t *offsets = name->buffers[1];
            const char *data = name->buffers[2];
            int32_t start = offsets[name->offset], end = offsets[name->offset + 1];
            CHECK(end - start == 3 && memcmp(data + start, "a\"b", 3) == 0, "row 0: name %.*s", end - start,
                  data + start);
        }
        release_exports(&array, &schema);
    }

    /* A malformed value fails the batch by its index; nothing is exported. */
    build_side(&values, EXPECTED_VALUES, 1, "{\"id\":2,\"name\":");
    status = kjson_decode(decoder, &keys.slab, &values.slab, &array, &schema, &errors);
    CHECK(status == KJSON_STATUS_RECORD_FAILED, "malformed: status %d", status);
    const char *error = kjson_error(decoder);
    CHECK(strncmp(error, "record 1: Failed to deserialize JSON", 36) == 0, "error: %s", error);
    CHECK(array.release == NULL && schema.release == NULL, "something was exported on failure");
    CHECK(errors.count == 1 && errors.records[0] == 1, "errors: %zu", errors.count);
    printf("malformed record: %s\n", error);

    /* Collected instead: the other records' rows, and the failed one listed. */
    CHECK(kjson_decoder_set_on_error(decoder, true) == KJSON_STATUS_OK, "set_on_error");
    status = kjson_decode(decoder, &keys.slab, &values.slab, &array, NULL, &errors);
    CHECK(status == KJSON_STATUS_OK, "collect: status %d: %s", status, kjson_error(decoder));
    if (status == KJSON_STATUS_OK) {
        CHECK(array.length == ROWS - 1, "collect: %lld rows", (long long)array.length);
        CHECK(errors.count == 1 && errors.records[0] == 1 && strstr(errors.messages[0], "Failed") != NULL,
              "collect: errors %zu", errors.count);
        array.release(&array);
    }
    CHECK(kjson_close(decoder) == KJSON_STATUS_OK, "close decoder");
    CHECK(kjson_decode(decoder, NULL, &values.slab, &array, NULL, NULL) == KJSON_STATUS_INVALID_ARGUMENT,
          "decode on a closed handle");
    CHECK(array.release == NULL, "an export on a closed handle");
    CHECK(kjson_decoder_close(decoder) == KJSON_STATUS_INVALID_ARGUMENT, "second close of a decoder");
}

int main(void) {
    KjsonHandle handle = 0;
    CHECK(kjson_open_ddl(EXPECTED_DDL, NULL, NULL, &handle) == KJSON_STATUS_OK, "open: %s", kjson_error(0));
    encode_and_check(handle, NAME_UTF8, "utf8 batch");
    encode_and_check(handle, NAME_DICTIONARY, "dictionary batch (re-planned)");
    wrong_type_is_refused_and_released_once(handle);
    encode_and_check(handle, NAME_UTF8, "utf8 batch after the error");
    CHECK(*kjson_error(handle) == '\0', "error text kept after a success: %s", kjson_error(handle));
    CHECK(kjson_close(handle) == KJSON_STATUS_OK, "close");

    KjsonHandle parts = open_from_parts();
    encode_and_check(parts, NAME_DICTIONARY, "parts: dictionary batch");
    encode_and_check(parts, NAME_UTF8, "parts: utf8 batch");
    CHECK(kjson_close(parts) == KJSON_STATUS_OK, "close parts");

    bad_ddl_names_the_position();
    parts_without_primary_key_are_refused();
    bad_arguments_are_errors(handle);
    decode_reads_the_records_back();

    printf("%s: %d array releases counted, %d failures\n", failures ? "FAILED" : "ok", array_releases, failures);
    return failures ? 1 : 0;
}
