//! Bids, as upstream's `BidGenerator` makes them, and the channel/URL table they point into.
use super::auction::{next_base0_auction_id, next_price};
use super::config::{GeneratorConfig, FIRST_AUCTION_ID, FIRST_PERSON_ID};
use super::person::next_base0_person_id;
use super::rng::SplitMix64;
use super::strings::{next_string, ExtraPool, ExtraSlice};

/// Hot auctions / bidders are the first / second id of each batch of this many.
const HOT_BATCH: i64 = 100;
const HOT_CHANNELS: [&str; 4] = ["Google", "Facebook", "Baidu", "Apple"];
pub const CHANNELS_NUMBER: u32 = 10_000;
/// A bid's size before `extra`: four longs.
const BID_FIXED_SIZE: i32 = 8 * 4;

/// A bid; `channel` indexes a [`ChannelTable`], `extra` the [`ExtraPool`]. Plain data, so the
/// changelog models copy bids freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bid {
    pub auction: i64,
    pub bidder: i64,
    pub price: i64,
    pub channel: u16,
    pub date_time: i64,
    pub extra: ExtraSlice,
}

/// Channel names and URLs: entries `0..10_000` are `channel-<i>` with their cached URL, the last
/// four the hot channels with their fixed URLs.
#[derive(Debug, Clone)]
pub struct ChannelTable {
    names: Vec<String>,
    urls: Vec<String>,
}

impl ChannelTable {
    pub fn new(rng: &mut SplitMix64) -> Self {
        let count = CHANNELS_NUMBER as usize + HOT_CHANNELS.len();
        let mut names = Vec::with_capacity(count);
        let mut urls = Vec::with_capacity(count);
        // Upstream builds the hot URLs first, then the cache, from one static random.
        let hot_urls: Vec<String> = HOT_CHANNELS.iter().map(|_| base_url(rng)).collect();
        for i in 0..CHANNELS_NUMBER as i32 {
            let mut url = base_url(rng);
            if rng.next_below(10) > 0 {
                // Math.abs(Integer.reverse(i)): reverse(1) is MIN_VALUE, whose abs stays negative.
                url.push_str(&format!("&channel_id={}", i.reverse_bits().wrapping_abs()));
            }
            names.push(format!("channel-{i}"));
            urls.push(url);
        }
        names.extend(HOT_CHANNELS.iter().map(|s| s.to_string()));
        urls.extend(hot_urls);
        ChannelTable { names, urls }
    }

    #[inline]
    pub fn name(&self, channel: u16) -> &str {
        self.names.get(usize::from(channel)).map_or("", String::as_str)
    }

    #[inline]
    pub fn url(&self, channel: u16) -> &str {
        self.urls.get(usize::from(channel)).map_or("", String::as_str)
    }

    pub fn is_hot(channel: u16) -> bool {
        u32::from(channel) >= CHANNELS_NUMBER
    }
}

/// `https://www.nexmark.com/<s>/<s>/<s>/item.htm?query=1` with `nextString(5, '_')` parts.
fn base_url(rng: &mut SplitMix64) -> String {
    let mut url = String::from("https://www.nexmark.com/");
    for _ in 0..3 {
        url.push_str(&next_string(rng, 5, '_'));
        url.push('/');
    }
    url.push_str("item.htm?query=1");
    url
}

pub fn next_bid(
    config: &GeneratorConfig,
    rng: &mut SplitMix64,
    pool: &ExtraPool,
    event_id: i64,
    timestamp: i64,
) -> Bid {
    let auction = if rng.next_below(config.hot_auction_ratio) > 0 {
        (config.last_base0_auction_id(event_id) / HOT_BATCH) * HOT_BATCH
    } else {
        next_base0_auction_id(config, rng, event_id)
    } + FIRST_AUCTION_ID;
    let bidder = if rng.next_below(config.hot_bidders_ratio) > 0 {
        (config.last_base0_person_id(event_id) / HOT_BATCH) * HOT_BATCH + 1
    } else {
        next_base0_person_id(config, rng, event_id)
    };
    let price = next_price(rng);
    let channel = if rng.next_below(2) > 0 {
        CHANNELS_NUMBER + rng.next_below(HOT_CHANNELS.len() as u32)
    } else {
        rng.next_below(CHANNELS_NUMBER)
    } as u16;
    // Upstream adds FIRST_PERSON_ID twice.
    let bidder = bidder + 2 * FIRST_PERSON_ID;
    let extra = pool.next_extra(rng, BID_FIXED_SIZE, config.avg_bid_byte_size);
    Bid { auction, bidder, price, channel, date_time: timestamp, extra }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(n: i64) -> usize {
        n.to_string().len()
    }

    #[test]
    fn prices_have_three_to_eight_digits_about_evenly() {
        let mut rng = SplitMix64::new(21);
        let mut by_digits = [0usize; 10];
        for _ in 0..60_000 {
            let price = next_price(&mut rng);
            assert!((100..=100_000_000).contains(&price), "{price}");
            by_digits[digits(price).min(9)] += 1;
        }
        for count in &by_digits[3..=8] {
            assert!((8_500..11_500).contains(count), "{by_digits:?}");
        }
        assert!(by_digits[9] <= 1, "{by_digits:?}");
    }

    #[test]
    fn urls_have_upstream_layout() {
        let table = ChannelTable::new(&mut SplitMix64::new(22));
        let mut with_id = 0;
        for channel in 0..(CHANNELS_NUMBER as u16 + 4) {
            let url = table.url(channel);
            let rest = url.strip_prefix("https://www.nexmark.com/").expect(url);
            let (path, query) = rest.split_once("item.htm?query=1").expect(url);
            let parts: Vec<&str> = path.split_terminator('/').collect();
            assert_eq!(parts.len(), 3, "{url}");
            assert!(parts.iter().all(|p| (3..=4).contains(&p.len())), "{url}");
            assert!(path.bytes().all(|b| b == b'/' || b == b'_' || b.is_ascii_lowercase()), "{url}");
            if let Some(id) = query.strip_prefix("&channel_id=") {
                let expected = (i32::from(channel)).reverse_bits().wrapping_abs();
                assert_eq!(id, expected.to_string(), "{url}");
                with_id += 1;
            } else {
                assert_eq!(query, "", "{url}");
            }
        }
        assert!((8_800..9_200).contains(&with_id), "{with_id}");
    }

    #[test]
    fn channel_one_carries_java_abs_of_min_value() {
        assert_eq!(1i32.reverse_bits().wrapping_abs(), i32::MIN);
        assert_eq!(2i32.reverse_bits().wrapping_abs(), 1 << 30);
    }

    #[test]
    fn channel_names_and_hot_share() {
        let config = GeneratorConfig::with_seed(1);
        let mut rng = SplitMix64::new(23);
        let pool = ExtraPool::new(&mut rng);
        let table = ChannelTable::new(&mut rng);
        let mut hot = 0;
        for event_id in (50_000_004..50_200_004).step_by(50) {
            let bid = next_bid(&config, &mut rng, &pool, event_id, 0);
            let name = table.name(bid.channel);
            if ChannelTable::is_hot(bid.channel) {
                assert!(HOT_CHANNELS.contains(&name));
                hot += 1;
            } else {
                let n: u32 = name.strip_prefix("channel-").unwrap().parse().unwrap();
                assert!(n < CHANNELS_NUMBER);
            }
        }
        assert!((1_800..2_200).contains(&hot), "{hot}");
    }

    #[test]
    fn hot_auctions_and_bidders_take_their_shares() {
        let config = GeneratorConfig::with_seed(1);
        let mut rng = SplitMix64::new(24);
        let pool = ExtraPool::new(&mut rng);
        let event_id = 50_000_010;
        let hot_auction = (config.last_base0_auction_id(event_id) / 100) * 100 + FIRST_AUCTION_ID;
        let hot_bidder = (config.last_base0_person_id(event_id) / 100) * 100 + 1 + 2 * FIRST_PERSON_ID;
        let (mut auctions, mut bidders) = (0, 0);
        for _ in 0..10_000 {
            let bid = next_bid(&config, &mut rng, &pool, event_id, 0);
            auctions += usize::from(bid.auction == hot_auction);
            bidders += usize::from(bid.bidder == hot_bidder);
            assert!((54..=81).contains(&bid.extra.len));
        }
        // 1/2 (+ the random pick landing on it) and 3/4 (+ likewise).
        assert!((4_800..5_400).contains(&auctions), "{auctions}");
        assert!((7_300..7_800).contains(&bidders), "{bidders}");
    }
}
