//! The generator configuration and upstream's event-number arithmetic (`GeneratorConfig`,
//! `NexmarkConfiguration` and the id helpers of `PersonGenerator` / `AuctionGenerator`).

/// Upstream `FIRST_PERSON_ID`, `FIRST_AUCTION_ID` and `FIRST_CATEGORY_ID`.
pub const FIRST_PERSON_ID: i64 = 1000;
pub const FIRST_AUCTION_ID: i64 = 1000;
pub const FIRST_CATEGORY_ID: i64 = 10;

/// 2026-08-22 00:00:00 UTC: the day the seed picks a base time in.
const BASE_DAY_MS: i64 = 1_787_356_800_000;
const DAY_MS: u64 = 86_400_000;

/// Upstream defaults, plus the benchmark guide's rate and a starting point inside a long run.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorConfig {
    pub person_proportion: i64,
    pub auction_proportion: i64,
    pub bid_proportion: i64,
    pub avg_person_byte_size: i32,
    pub avg_auction_byte_size: i32,
    pub avg_bid_byte_size: i32,
    pub hot_auction_ratio: u32,
    pub hot_sellers_ratio: u32,
    pub hot_bidders_ratio: u32,
    pub num_in_flight_auctions: i64,
    pub num_active_people: i64,
    /// Events per second over all generators (the benchmark guide runs 10M/s).
    pub event_rate: f64,
    pub num_generators: u32,
    /// Event time of event number 0, in epoch milliseconds.
    pub base_time_ms: i64,
    /// The first event number produced: 50M, the middle of the guide's 100M-event run, so ids
    /// have the widths a running benchmark sees.
    pub first_event_number: i64,
}

impl GeneratorConfig {
    /// Upstream defaults with a base time derived from `seed` (deterministic, unlike upstream's
    /// `System.currentTimeMillis()`).
    pub fn with_seed(seed: u64) -> Self {
        let mut mix = super::rng::SplitMix64::new(seed ^ 0x6E65_786D_6172_6B00);
        GeneratorConfig {
            person_proportion: 1,
            auction_proportion: 3,
            bid_proportion: 46,
            avg_person_byte_size: 200,
            avg_auction_byte_size: 500,
            avg_bid_byte_size: 100,
            hot_auction_ratio: 2,
            hot_sellers_ratio: 4,
            hot_bidders_ratio: 4,
            num_in_flight_auctions: 100,
            num_active_people: 1000,
            event_rate: 10_000_000.0,
            num_generators: 1,
            base_time_ms: BASE_DAY_MS + (mix.next_u64() % DAY_MS) as i64,
            first_event_number: 50_000_000,
        }
    }

    pub fn total_proportion(&self) -> i64 {
        self.person_proportion + self.auction_proportion + self.bid_proportion
    }

    fn inter_event_delay_us(&self) -> f64 {
        1_000_000.0 / self.event_rate * f64::from(self.num_generators)
    }

    /// `baseTime + (long)(eventNumber * interEventDelayUs) / 1000`, truncations as upstream.
    pub fn timestamp_for_event(&self, event_number: i64) -> i64 {
        self.base_time_ms + (event_number as f64 * self.inter_event_delay_us()) as i64 / 1000
    }

    /// The id (base 0) of the last person generated at or before `event_id`.
    pub fn last_base0_person_id(&self, event_id: i64) -> i64 {
        let epoch = event_id / self.total_proportion();
        let mut offset = event_id % self.total_proportion();
        if offset >= self.person_proportion {
            offset = self.person_proportion - 1;
        }
        epoch * self.person_proportion + offset
    }

    /// The id (base 0) of the last auction generated at or before `event_id`.
    pub fn last_base0_auction_id(&self, event_id: i64) -> i64 {
        let mut epoch = event_id / self.total_proportion();
        let mut offset = event_id % self.total_proportion();
        if offset < self.person_proportion {
            epoch -= 1;
            offset = self.auction_proportion - 1;
        } else if offset >= self.person_proportion + self.auction_proportion {
            offset = self.auction_proportion - 1;
        } else {
            offset -= self.person_proportion;
        }
        epoch * self.auction_proportion + offset
    }

    /// Events between now and the auction `num_in_flight_auctions` ahead (upstream's horizon).
    pub fn events_for_in_flight_auctions(&self) -> i64 {
        self.num_in_flight_auctions * self.total_proportion() / self.auction_proportion
    }
}

/// Which generator an event id dispatches to (`eventId % totalProportion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Person,
    Auction,
    Bid,
}

impl GeneratorConfig {
    pub fn event_kind(&self, event_id: i64) -> EventKind {
        let rem = event_id % self.total_proportion();
        if rem < self.person_proportion {
            EventKind::Person
        } else if rem < self.person_proportion + self.auction_proportion {
            EventKind::Auction
        } else {
            EventKind::Bid
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_mix_is_one_three_forty_six_in_fifty() {
        let config = GeneratorConfig::with_seed(1);
        let kinds: Vec<EventKind> = (0..50).map(|id| config.event_kind(id)).collect();
        assert_eq!(kinds[0], EventKind::Person);
        assert!(kinds[1..4].iter().all(|k| *k == EventKind::Auction));
        assert!(kinds[4..].iter().all(|k| *k == EventKind::Bid));
    }

    #[test]
    fn last_ids_follow_upstream_epochs() {
        let config = GeneratorConfig::with_seed(1);
        // Epoch 2 starts at event 100: person 2, auctions 6..8, then bids.
        assert_eq!(config.last_base0_person_id(100), 2);
        assert_eq!(config.last_base0_person_id(149), 2);
        assert_eq!(config.last_base0_auction_id(100), 5);
        assert_eq!(config.last_base0_auction_id(101), 6);
        assert_eq!(config.last_base0_auction_id(103), 8);
        assert_eq!(config.last_base0_auction_id(120), 8);
    }

    #[test]
    fn ten_thousand_events_share_a_millisecond_at_ten_million_per_second() {
        let config = GeneratorConfig::with_seed(1);
        let base = config.base_time_ms;
        assert_eq!(config.timestamp_for_event(50_000_000), base + 5_000);
        assert_eq!(config.timestamp_for_event(50_010_000), base + 5_001);
        assert_eq!(config.timestamp_for_event(50_019_999), base + 5_001);
    }

    #[test]
    fn base_time_depends_on_seed_only() {
        assert_eq!(GeneratorConfig::with_seed(9), GeneratorConfig::with_seed(9));
        assert_ne!(GeneratorConfig::with_seed(9).base_time_ms, GeneratorConfig::with_seed(10).base_time_ms);
        let base = GeneratorConfig::with_seed(9).base_time_ms;
        assert!((BASE_DAY_MS..BASE_DAY_MS + DAY_MS as i64).contains(&base));
    }
}
