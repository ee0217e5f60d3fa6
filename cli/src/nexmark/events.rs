//! The event stream: numbering, timestamps and the person/auction/bid dispatch of upstream's
//! `NexmarkGenerator` (one generator, no out-of-order groups).
use std::sync::Arc;

use super::auction::{next_auction, Auction};
use super::bid::{next_bid, Bid, ChannelTable};
use super::config::{EventKind, GeneratorConfig};
use super::person::{next_person, Person};
use super::rng::SplitMix64;
use super::strings::{ExtraPool, ExtraSlice};

/// One generated event. Auctions are shared because the q9 model keeps them in its state.
#[derive(Debug, Clone)]
pub enum Event {
    Person(Person),
    Auction(Arc<Auction>),
    Bid(Bid),
}

/// The text every event points into: the extra pool and the channel/URL table.
#[derive(Debug, Clone)]
pub struct TextTables {
    pub pool: ExtraPool,
    pub channels: ChannelTable,
}

impl TextTables {
    #[inline]
    pub fn extra(&self, slice: ExtraSlice) -> &str {
        self.pool.get(slice)
    }
}

pub struct EventGenerator {
    config: GeneratorConfig,
    rng: SplitMix64,
    text: TextTables,
    events_so_far: i64,
}

impl EventGenerator {
    pub fn new(config: GeneratorConfig, seed: u64) -> Self {
        // Upstream builds the pool and the URL cache from their own static randoms.
        let mut table_rng = SplitMix64::new(seed.rotate_left(17) ^ 0x5EED_7AB1E5);
        let pool = ExtraPool::new(&mut table_rng);
        let channels = ChannelTable::new(&mut table_rng);
        EventGenerator { config, rng: SplitMix64::new(seed), text: TextTables { pool, channels }, events_so_far: 0 }
    }

    pub fn config(&self) -> &GeneratorConfig {
        &self.config
    }

    pub fn text(&self) -> &TextTables {
        &self.text
    }

    pub fn events_so_far(&self) -> i64 {
        self.events_so_far
    }

    /// The event number (and id, since the first event id is 0) of the next event.
    pub fn next_event_number(&self) -> i64 {
        self.config.first_event_number + self.events_so_far
    }

    pub fn next_event(&mut self) -> Event {
        let event_number = self.next_event_number();
        let event_id = event_number;
        let timestamp = self.config.timestamp_for_event(event_number);
        let (config, rng, pool) = (&self.config, &mut self.rng, &self.text.pool);
        let event = match config.event_kind(event_id) {
            EventKind::Person => Event::Person(next_person(config, rng, pool, event_id, timestamp)),
            EventKind::Auction => {
                Event::Auction(Arc::new(next_auction(config, rng, pool, event_number, event_id, timestamp)))
            }
            EventKind::Bid => Event::Bid(next_bid(config, rng, pool, event_id, timestamp)),
        };
        self.events_so_far += 1;
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_in_upstream_order_with_monotonic_time() {
        let mut generator = EventGenerator::new(GeneratorConfig::with_seed(5), 5);
        let base = generator.config().base_time_ms;
        let mut last_time = i64::MIN;
        let mut distinct_ms = 0;
        for i in 0..200_000 {
            let event = generator.next_event();
            let time = match (&event, i % 50) {
                (Event::Person(p), 0) => p.date_time,
                (Event::Auction(a), 1..=3) => a.date_time,
                (Event::Bid(b), 4..) => b.date_time,
                _ => panic!("event {i} has the wrong kind"),
            };
            assert!(last_time == i64::MIN || (0..=1).contains(&(time - last_time)), "event {i}");
            distinct_ms += usize::from(time != last_time);
            last_time = time;
        }
        // 50M events in at 10M/s is 5 s after the base time; 200k events span 20 ms.
        assert_eq!(last_time, base + 5_019);
        assert_eq!(distinct_ms, 20);
    }
}
