/* Written by capi/tests/expected_records.rs from the Rust encoder's output; do not edit. */
struct expected_record { const char *bytes; int32_t length; };

static const char EXPECTED_DDL[] = "CREATE TABLE t (id BIGINT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json')";

static const struct expected_record EXPECTED_KEYS[3] = {
    {"{\"id\":1}", 8},
    {"{\"id\":2}", 8},
    {"{\"id\":3}", 8},
};

static const struct expected_record EXPECTED_VALUES[3] = {
    {"{\"id\":1,\"name\":\"a\\\"b\"}", 22},
    {NULL, -1},
    {"{\"id\":3,\"name\":\"\303\251\"}", 20},
};
