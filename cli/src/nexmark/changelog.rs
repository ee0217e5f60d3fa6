//! What each query's sink receives, modelled on Flink's operators for the three Nexmark queries.
//!
//! - q0: every bid, as `+I`.
//! - q9 (`ROW_NUMBER() ... <= 1` without the number, over an append-only join): Flink's
//!   `AppendOnlyTopNFunction` emits `+I` for an auction's first matching bid and, when a strictly
//!   better bid (higher price; the earlier time wins ties) arrives, `-D` of the old winner then
//!   `+I` of the new one. Simplifications: a bid whose auction has not been generated yet is
//!   dropped (Flink would keep it in join state), and auctions are forgotten once expired.
//! - q19 (`ROW_NUMBER() ... <= 10` with the number): inserting at rank r emits, for every row
//!   pushed down a rank, `-U` (old row, rank k) then `+U` (row now at rank k), and `+I` for a rank
//!   filled for the first time; the row pushed out of rank 10 disappears without a message
//!   because its key `(auction, 10)` is reused. Equal prices keep arrival order. Auctions that can
//!   no longer receive bids are forgotten. With an upsert sink Flink's planner asks the rank for
//!   no UPDATE_BEFORE at all; [`TopBids::without_update_before`] models that.
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use kjson_arrow::runtime::RowKind;

use super::auction::Auction;
use super::bid::Bid;
use super::events::Event;
use super::Query;

/// q19 keeps this many bids per auction.
pub const TOP_N: usize = 10;
/// Bids only go to the last ~100 auctions (plus 10 ids ahead), so an auction this far behind
/// the newest one bid on can be forgotten.
const TOP_N_AUCTION_HORIZON: i64 = 1_000;
const TOP_N_PRUNE_EVERY_BIDS: u32 = 1 << 16;

/// One row for the sink, before it is laid out in Arrow columns.
#[derive(Debug, Clone, PartialEq)]
pub enum SinkRow {
    /// q0: the bid itself, always `+I`.
    Bid(Bid),
    /// q9: an auction joined with its winning bid.
    Winner { auction: Arc<Auction>, bid: Bid, kind: RowKind },
    /// q19: a bid at a 1-based rank of its auction.
    Ranked { bid: Bid, rank: i64, kind: RowKind },
}

/// The per-query state that turns events into sink rows.
pub enum SinkModel {
    PassThrough,
    WinningBids(WinningBids),
    TopBids(TopBids),
}

impl SinkModel {
    /// `update_before`: whether q19 emits `-U` rows (q0 and q9 never do).
    pub fn for_query(query: Query, update_before: bool) -> Self {
        match query {
            Query::Q0 => SinkModel::PassThrough,
            Query::Q9 => SinkModel::WinningBids(WinningBids::default()),
            Query::Q19 if update_before => SinkModel::TopBids(TopBids::default()),
            Query::Q19 => SinkModel::TopBids(TopBids::without_update_before()),
        }
    }

    pub fn on_event(&mut self, event: Event, out: &mut VecDeque<SinkRow>) {
        match (self, event) {
            (SinkModel::PassThrough, Event::Bid(bid)) => out.push_back(SinkRow::Bid(bid)),
            (SinkModel::WinningBids(model), Event::Auction(auction)) => model.on_auction(auction),
            (SinkModel::WinningBids(model), Event::Bid(bid)) => model.on_bid(bid, out),
            (SinkModel::TopBids(model), Event::Bid(bid)) => model.on_bid(bid, out),
            _ => {}
        }
    }
}

struct OpenAuction {
    auction: Arc<Auction>,
    winner: Option<Bid>,
}

/// q9 state: open auctions and their current winning bid.
#[derive(Default)]
pub struct WinningBids {
    open: HashMap<i64, OpenAuction>,
    /// Ids in creation order, to forget auctions once they expire.
    by_creation: VecDeque<i64>,
}

impl WinningBids {
    pub fn on_auction(&mut self, auction: Arc<Auction>) {
        self.by_creation.push_back(auction.id);
        self.open.insert(auction.id, OpenAuction { auction, winner: None });
    }

    pub fn on_bid(&mut self, bid: Bid, out: &mut VecDeque<SinkRow>) {
        self.forget_expired(bid.date_time);
        let Some(open) = self.open.get_mut(&bid.auction) else { return };
        let auction = &open.auction;
        // WHERE B.dateTime BETWEEN A.dateTime AND A.expires
        if bid.date_time < auction.date_time || bid.date_time > auction.expires {
            return;
        }
        match open.winner {
            None => {}
            Some(old) if bid.price > old.price => {
                out.push_back(SinkRow::Winner { auction: auction.clone(), bid: old, kind: RowKind::Delete });
            }
            Some(_) => return,
        }
        out.push_back(SinkRow::Winner { auction: auction.clone(), bid, kind: RowKind::Insert });
        open.winner = Some(bid);
    }

    /// Drops auctions from the front of the creation order while they have expired.
    fn forget_expired(&mut self, now: i64) {
        while let Some(id) = self.by_creation.front() {
            match self.open.get(id) {
                Some(open) if open.auction.expires >= now => break,
                _ => {
                    self.open.remove(id);
                    self.by_creation.pop_front();
                }
            }
        }
    }

    pub fn open_auctions(&self) -> usize {
        self.open.len()
    }
}

/// q19 state: up to [`TOP_N`] bids per auction, best first.
#[derive(Default)]
pub struct TopBids {
    by_auction: HashMap<i64, Vec<Bid>>,
    newest_auction: i64,
    bids_since_prune: u32,
    omit_update_before: bool,
}

impl TopBids {
    /// Emits `+U` without the `-U` before it, as Flink's rank does for an upsert sink.
    pub fn without_update_before() -> Self {
        TopBids { omit_update_before: true, ..TopBids::default() }
    }

    pub fn on_bid(&mut self, bid: Bid, out: &mut VecDeque<SinkRow>) {
        self.newest_auction = self.newest_auction.max(bid.auction);
        self.bids_since_prune += 1;
        if self.bids_since_prune >= TOP_N_PRUNE_EVERY_BIDS {
            self.prune();
        }
        let ranked = self.by_auction.entry(bid.auction).or_default();
        // After every bid of an equal price: Flink appends to the sort key's list.
        let position = ranked.iter().position(|b| b.price < bid.price).unwrap_or(ranked.len());
        if position >= TOP_N {
            return;
        }
        let mut current = bid;
        for (index, slot) in ranked.iter_mut().enumerate().skip(position) {
            let rank = index as i64 + 1;
            let displaced = std::mem::replace(slot, current);
            if !self.omit_update_before {
                out.push_back(SinkRow::Ranked { bid: displaced, rank, kind: RowKind::UpdateBefore });
            }
            out.push_back(SinkRow::Ranked { bid: current, rank, kind: RowKind::UpdateAfter });
            current = displaced;
        }
        if ranked.len() < TOP_N {
            let rank = ranked.len() as i64 + 1;
            out.push_back(SinkRow::Ranked { bid: current, rank, kind: RowKind::Insert });
            ranked.push(current);
        }
    }

    fn prune(&mut self) {
        let oldest_kept = self.newest_auction - TOP_N_AUCTION_HORIZON;
        self.by_auction.retain(|id, _| *id >= oldest_kept);
        self.bids_since_prune = 0;
    }

    pub fn tracked_auctions(&self) -> usize {
        self.by_auction.len()
    }
}
