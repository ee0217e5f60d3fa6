/* The C ABI end to end: open from DDL and from parts, encode batches built by hand through the
 * Arrow C Data Interface, compare with the Rust encoder's records (expected_records.h), re-plan
 * on a dictionary-encoded column, refuse a bad DDL and a wrong Arrow type with their positions,
 * and check that every imported array is released exactly once. Run by scripts/capi-test.sh. */
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

    printf("%s: %d array releases counted, %d failures\n", failures ? "FAILED" : "ok", array_releases, failures);
    return failures ? 1 : 0;
}
