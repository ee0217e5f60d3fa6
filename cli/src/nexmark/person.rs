//! People, as upstream's `PersonGenerator` makes them. No sink of q0/q9/q19 reads them, but they
//! take their 2% of the event numbers (and ids) as upstream.
use super::config::{GeneratorConfig, FIRST_PERSON_ID};
use super::rng::SplitMix64;
use super::strings::{next_string, ExtraPool, ExtraSlice};

const PERSON_ID_LEAD: i64 = 10;
const US_STATES: [&str; 6] = ["AZ", "CA", "ID", "OR", "WA", "WY"];
const US_CITIES: [&str; 10] =
    ["Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"];
const FIRST_NAMES: [&str; 11] =
    ["Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"];
const LAST_NAMES: [&str; 9] = ["Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"];

#[derive(Debug, Clone, PartialEq)]
pub struct Person {
    pub id: i64,
    pub name: String,
    pub email_address: String,
    pub credit_card: String,
    pub city: &'static str,
    pub state: &'static str,
    pub date_time: i64,
    pub extra: ExtraSlice,
}

pub fn next_person(
    config: &GeneratorConfig,
    rng: &mut SplitMix64,
    pool: &ExtraPool,
    event_id: i64,
    timestamp: i64,
) -> Person {
    let id = config.last_base0_person_id(event_id) + FIRST_PERSON_ID;
    let name = format!("{} {}", pick(rng, &FIRST_NAMES), pick(rng, &LAST_NAMES));
    let email_address = format!("{}@{}.com", next_string(rng, 7, ' '), next_string(rng, 5, ' '));
    let credit_card = next_credit_card(rng);
    let city = pick(rng, &US_CITIES);
    let state = pick(rng, &US_STATES);
    let current_size = 8 + name.len() + email_address.len() + credit_card.len() + city.len() + state.len();
    let extra = pool.next_extra(rng, current_size as i32, config.avg_person_byte_size);
    Person { id, name, email_address, credit_card, city, state, date_time: timestamp, extra }
}

/// A random active person (base 0), or one of a few not created yet.
pub fn next_base0_person_id(config: &GeneratorConfig, rng: &mut SplitMix64, event_id: i64) -> i64 {
    let num_people = config.last_base0_person_id(event_id) + 1;
    let active_people = num_people.min(config.num_active_people);
    let n = rng.next_long_below(active_people + PERSON_ID_LEAD);
    num_people - active_people + n
}

fn pick(rng: &mut SplitMix64, names: &[&'static str]) -> &'static str {
    names[rng.next_below(names.len() as u32) as usize]
}

/// Four `%04d` groups joined by spaces.
fn next_credit_card(rng: &mut SplitMix64) -> String {
    let mut card = String::with_capacity(19);
    for group in 0..4 {
        if group > 0 {
            card.push(' ');
        }
        let mut n = rng.next_below(10_000);
        let mut digits = [b'0'; 4];
        for digit in digits.iter_mut().rev() {
            *digit += (n % 10) as u8;
            n /= 10;
        }
        card.extend(digits.iter().map(|&d| char::from(d)));
    }
    card
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_fields_have_upstream_shapes() {
        let config = GeneratorConfig::with_seed(1);
        let mut rng = SplitMix64::new(2);
        let pool = ExtraPool::new(&mut rng);
        for event_id in (50_000_000..50_050_000).step_by(50) {
            let p = next_person(&config, &mut rng, &pool, event_id, 7);
            assert_eq!(p.id, event_id / 50 + FIRST_PERSON_ID);
            let (first, last) = p.name.split_once(' ').unwrap();
            assert!(FIRST_NAMES.contains(&first) && LAST_NAMES.contains(&last));
            assert_eq!(p.credit_card.len(), 19);
            assert!(p.credit_card.split(' ').all(|g| g.len() == 4 && g.bytes().all(|b| b.is_ascii_digit())));
            assert!(p.email_address.ends_with(".com") && p.email_address.contains('@'));
            let size = 8 + p.name.len() + p.email_address.len() + 19 + p.city.len() + 2;
            let d = 200 - size as i64;
            let delta = (d as f64 * 0.2 + 0.5).floor() as i64;
            assert!((d - delta..d + delta.max(1)).contains(&i64::from(p.extra.len)), "{p:?}");
        }
    }

    #[test]
    fn random_people_are_recent() {
        let config = GeneratorConfig::with_seed(1);
        let mut rng = SplitMix64::new(3);
        let event_id = 50_000_004;
        let last = config.last_base0_person_id(event_id);
        for _ in 0..10_000 {
            let id = next_base0_person_id(&config, &mut rng, event_id);
            assert!(id > last - 1000 && id <= last + PERSON_ID_LEAD, "{id} vs {last}");
        }
    }
}
