//! Rust identifiers for generated items, made from SQL names: deterministic, valid, unique.
use std::collections::BTreeSet;

/// `dateTime` -> `date_time`, `bid_dateTime` -> `bid_date_time`; anything but ASCII letters and
/// digits becomes `_`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if previous_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            out.push('_');
            previous_lower = false;
        }
    }
    out
}

/// `nexmark_q9` -> `NexmarkQ9`; `fallback` if nothing usable is left.
pub fn upper_camel_case(name: &str, fallback: &str) -> String {
    let camel: String = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars).collect::<String>()
        })
        .collect();
    if is_ident(&camel) {
        camel
    } else {
        fallback.to_string()
    }
}

/// A valid, non-keyword Rust identifier (`_` alone excluded).
pub fn is_ident(text: &str) -> bool {
    text != "_" && syn::parse_str::<syn::Ident>(text).is_ok()
}

/// Hands out identifiers, each once: the preferred spelling when it is free and valid, else a
/// spelling made unique with the column index.
#[derive(Default)]
pub struct IdentPool {
    taken: BTreeSet<String>,
}

impl IdentPool {
    pub fn reserve(&mut self, ident: &str) {
        self.taken.insert(ident.to_string());
    }

    pub fn take(&mut self, preferred: &str, index: usize) -> String {
        let mut candidate = preferred.to_string();
        if !is_ident(&candidate) || self.taken.contains(&candidate) {
            candidate = format!("c{index}_{preferred}");
        }
        if !is_ident(&candidate) || self.taken.contains(&candidate) {
            candidate = format!("c{index}");
        }
        while self.taken.contains(&candidate) {
            candidate.push('_');
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_and_camel() {
        assert_eq!(snake_case("dateTime"), "date_time");
        assert_eq!(snake_case("bid_dateTime"), "bid_date_time");
        assert_eq!(snake_case("itemName"), "item_name");
        assert_eq!(snake_case("q\"uote é"), "q_uote__");
        assert_eq!(upper_camel_case("nexmark_q9", "Sink"), "NexmarkQ9");
        assert_eq!(upper_camel_case("9lives", "Sink"), "Sink");
        assert_eq!(upper_camel_case("", "Sink"), "Sink");
    }

    #[test]
    fn pool_avoids_keywords_duplicates_and_digits() {
        let mut pool = IdentPool::default();
        assert_eq!(pool.take("type", 0), "c0_type");
        assert_eq!(pool.take("a", 1), "a");
        assert_eq!(pool.take("a", 2), "c2_a");
        assert_eq!(pool.take("1x", 3), "c3_1x");
        assert_eq!(pool.take("_", 4), "c4__");
        pool.reserve("c5");
        assert_eq!(pool.take("", 5), "c5_");
    }
}
