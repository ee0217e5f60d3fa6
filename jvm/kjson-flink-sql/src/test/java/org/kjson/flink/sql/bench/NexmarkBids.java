package org.kjson.flink.sql.bench;

import java.util.Random;
import java.util.SplittableRandom;

import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * Nexmark bids as a deterministic function of the event number, shaped like the upstream
 * nexmark-flink generator (as the Rust generator in cli/src/nexmark does): hot auctions and bidders, prices of
 * 3 to 8 digits, half the bids on one of four hot channels, cached channel URLs, event times
 * that share milliseconds, and {@code extra} strings of 54 to 81 characters cut from one pool
 * built with a signed modulo (so about 70% contain a backslash that JSON must escape).
 *
 * <p>Rows are internal {@link RowData} of {@link #ROW_TYPE}, produced in the source task, so
 * both benchmark runs pay the same generation cost.
 */
public final class NexmarkBids implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    public static final String COLUMNS = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
            + " `dateTime` TIMESTAMP(3), extra STRING";
    public static final RowType ROW_TYPE = (RowType) LogicalTypeParser.parse("ROW<" + COLUMNS + ">",
            NexmarkBids.class.getClassLoader());

    private static final long FIRST_AUCTION_ID = 1000;
    private static final long FIRST_PERSON_ID = 1000;
    private static final int HOT_AUCTION_RATIO = 2;
    private static final int HOT_BIDDER_RATIO = 4;
    private static final int IN_FLIGHT_AUCTIONS = 100;
    private static final int ACTIVE_PEOPLE = 1000;
    /** 2026-01-01T00:00:00Z; a fixed base keeps both runs' bytes identical. */
    private static final long BASE_TIME_MILLIS = 1_767_225_600_000L;
    /** 1M events per second: 1000 bids share each millisecond. */
    private static final long EVENTS_PER_MILLI = 1000;
    private static final int EXTRA_TARGET = 68;
    private static final int POOL_SIZE = 1 << 20;
    private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final String[] HOT_URLS = {"https://www.nexmark.com/googl/item.htm?query=1",
            "https://www.nexmark.com/faceb/item.htm?query=1", "https://www.nexmark.com/baidu/item.htm?query=1",
            "https://www.nexmark.com/apple/item.htm?query=1"};
    private static final int CHANNELS = 10_000;

    private transient char[] pool;
    private transient String[] channelUrls;

    @Override
    public void open(org.apache.flink.api.connector.source.SourceReaderContext readerContext) {
        ensureTables();
    }

    private void ensureTables() {
        if (pool != null) {
            return;
        }
        Random random = new Random(42);
        pool = new char[POOL_SIZE];
        for (int i = 0; i < POOL_SIZE; i++) {
            pool[i] = (char) ('a' + random.nextInt() % 26); // signed: 'H'..'z', backslash included
        }
        channelUrls = new String[CHANNELS];
        for (int i = 0; i < CHANNELS; i++) {
            SplittableRandom r = new SplittableRandom(i);
            String url = "https://www.nexmark.com/" + word(r, 5) + "/" + word(r, 5) + "/" + word(r, 5) + "/item.htm?query=1";
            channelUrls[i] = r.nextInt(10) < 9 ? url + "&channel_id=" + Math.abs(Integer.reverse(i)) : url;
        }
    }

    @Override
    public RowData map(Long eventNumber) {
        ensureTables();
        long n = eventNumber;
        SplittableRandom random = new SplittableRandom(n * 0x9E3779B97F4A7C15L);
        long lastAuction = FIRST_AUCTION_ID + n * 3 / 50;
        long auction = random.nextInt(HOT_AUCTION_RATIO) > 0
                ? lastAuction / HOT_AUCTION_RATIO * HOT_AUCTION_RATIO
                : Math.max(FIRST_AUCTION_ID, lastAuction - random.nextInt(IN_FLIGHT_AUCTIONS));
        long lastPerson = FIRST_PERSON_ID + n / 50;
        long bidder = random.nextInt(HOT_BIDDER_RATIO) > 0
                ? lastPerson / HOT_BIDDER_RATIO * HOT_BIDDER_RATIO + 1 + FIRST_PERSON_ID
                : Math.max(FIRST_PERSON_ID, lastPerson - random.nextInt(ACTIVE_PEOPLE)) + FIRST_PERSON_ID;
        long price = Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
        String channel;
        String url;
        if (random.nextBoolean()) {
            int hot = random.nextInt(HOT_CHANNELS.length);
            channel = HOT_CHANNELS[hot];
            url = HOT_URLS[hot];
        } else {
            int c = random.nextInt(CHANNELS);
            channel = "channel-" + c;
            url = channelUrls[c];
        }
        GenericRowData row = new GenericRowData(7);
        row.setField(0, auction);
        row.setField(1, bidder);
        row.setField(2, price);
        row.setField(3, StringData.fromString(channel));
        row.setField(4, StringData.fromString(url));
        row.setField(5, TimestampData.fromEpochMillis(BASE_TIME_MILLIS + n / EVENTS_PER_MILLI));
        row.setField(6, StringData.fromString(extra(random)));
        return row;
    }

    /** Length in [d - round(0.2d), d + round(0.2d)), a substring of the pool. */
    private String extra(SplittableRandom random) {
        int spread = Math.round(0.2f * EXTRA_TARGET);
        int length = EXTRA_TARGET - spread + random.nextInt(2 * spread);
        int start = random.nextInt(POOL_SIZE - length);
        return new String(pool, start, length);
    }

    private static String word(SplittableRandom random, int max) {
        int length = 3 + random.nextInt(max - 3);
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = random.nextInt(13) == 0 ? '_' : (char) ('a' + random.nextInt(26));
        }
        return new String(out);
    }
}
