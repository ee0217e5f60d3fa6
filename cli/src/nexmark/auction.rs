//! Auctions, as upstream's `AuctionGenerator` makes them.
use super::config::{GeneratorConfig, FIRST_AUCTION_ID, FIRST_CATEGORY_ID, FIRST_PERSON_ID};
use super::person::next_base0_person_id;
use super::rng::SplitMix64;
use super::strings::{java_round, next_string, ExtraPool, ExtraSlice};

const NUM_CATEGORIES: u32 = 5;
const AUCTION_ID_LEAD: i64 = 10;
/// Hot sellers are the first person of each batch of this many.
const HOT_SELLER_BATCH: i64 = 100;

#[derive(Debug, Clone, PartialEq)]
pub struct Auction {
    pub id: i64,
    pub item_name: String,
    pub description: String,
    pub initial_bid: i64,
    pub reserve: i64,
    pub date_time: i64,
    pub expires: i64,
    pub seller: i64,
    pub category: i64,
    pub extra: ExtraSlice,
}

/// The auction of event `event_id` (the `event_number`-th event) at `timestamp`.
pub fn next_auction(
    config: &GeneratorConfig,
    rng: &mut SplitMix64,
    pool: &ExtraPool,
    event_number: i64,
    event_id: i64,
    timestamp: i64,
) -> Auction {
    let id = config.last_base0_auction_id(event_id) + FIRST_AUCTION_ID;
    let seller = if rng.next_below(config.hot_sellers_ratio) > 0 {
        (config.last_base0_person_id(event_id) / HOT_SELLER_BATCH) * HOT_SELLER_BATCH
    } else {
        next_base0_person_id(config, rng, event_id)
    } + FIRST_PERSON_ID;
    let category = FIRST_CATEGORY_ID + i64::from(rng.next_below(NUM_CATEGORIES));
    let initial_bid = next_price(rng);
    let expires = timestamp + next_auction_length_ms(config, rng, event_number, timestamp);
    let item_name = next_string(rng, 20, ' ');
    let description = next_string(rng, 100, ' ');
    let reserve = initial_bid + next_price(rng);
    let current_size = 8 + item_name.len() + description.len() + 8 * 5;
    let extra = pool.next_extra(rng, current_size as i32, config.avg_auction_byte_size);
    Auction { id, item_name, description, initial_bid, reserve, date_time: timestamp, expires, seller, category, extra }
}

/// A price (an auction's initial bid or reserve, a bid): `round(10^(6u) * 100)`, 100 ... 10^8,
/// about uniform in digit count.
pub fn next_price(rng: &mut SplitMix64) -> i64 {
    java_round(10f64.powf(rng.next_f64() * 6.0) * 100.0)
}

/// A random auction (base 0) among those likely still in flight, plus a few not created yet.
pub fn next_base0_auction_id(config: &GeneratorConfig, rng: &mut SplitMix64, event_id: i64) -> i64 {
    let max_auction = config.last_base0_auction_id(event_id);
    let min_auction = (max_auction - config.num_in_flight_auctions).max(0);
    min_auction + rng.next_long_below(max_auction - min_auction + 1 + AUCTION_ID_LEAD)
}

/// Auction length averaging the time until `num_in_flight_auctions` more auctions exist
/// (at 10M events/s that is 1 or 2 ms).
fn next_auction_length_ms(config: &GeneratorConfig, rng: &mut SplitMix64, event_number: i64, timestamp: i64) -> i64 {
    let future_auction = config.timestamp_for_event(event_number + config.events_for_in_flight_auctions());
    let horizon_ms = future_auction - timestamp;
    1 + rng.next_long_below((horizon_ms * 2).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auction_fields_have_upstream_shapes() {
        let config = GeneratorConfig::with_seed(1);
        let mut rng = SplitMix64::new(4);
        let pool = ExtraPool::new(&mut rng);
        for n in (50_000_001..50_500_001).step_by(50) {
            let t = config.timestamp_for_event(n);
            let a = next_auction(&config, &mut rng, &pool, n, n, t);
            assert_eq!(a.id, (n / 50) * 3 + FIRST_AUCTION_ID);
            assert!(a.item_name.len() <= 19 && a.description.len() <= 99, "{a:?}");
            assert!((10..15).contains(&a.category));
            assert!(a.reserve > a.initial_bid && a.initial_bid >= 100);
            assert!((1..=2).contains(&(a.expires - a.date_time)), "{a:?}");
            let d = 452 - (a.item_name.len() + a.description.len()) as i64;
            let delta = (d as f64 * 0.2 + 0.5).floor() as i64;
            assert!((d - delta..d + delta).contains(&i64::from(a.extra.len)), "{a:?}");
            assert!(a.seller >= FIRST_PERSON_ID);
        }
    }
}
