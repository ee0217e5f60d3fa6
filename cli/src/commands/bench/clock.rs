//! How `kjson bench` times: a monotonic wall clock (`Instant`), each sample repeating the
//! contender's pass over the batches until it covers at least [`MIN_SAMPLE`], several samples
//! per contender taken round-robin with the others (a disturbance of the shared machine hits
//! every contender alike), reported as the median and the spread of the samples.
use std::time::{Duration, Instant};

/// The shortest time one sample covers: long against the clock's granularity and the scheduler's
/// time slices.
pub const MIN_SAMPLE: Duration = Duration::from_millis(200);

/// One pass of a contender over all batches; returns the bytes it wrote.
pub type Pass<'a> = Box<dyn FnMut() -> Result<u64, String> + 'a>;

/// A named contender and its samples, each the mean time of one pass within that sample.
pub struct Contender<'a> {
    pub name: String,
    pass: Pass<'a>,
    repeats: u32,
    pub bytes: u64,
    pub samples: Vec<Duration>,
}

impl<'a> Contender<'a> {
    pub fn new(name: impl Into<String>, pass: Pass<'a>) -> Self {
        Contender { name: name.into(), pass, repeats: 1, bytes: 0, samples: Vec::new() }
    }

    /// A warm-up pass, which also sets how many passes make one sample of [`MIN_SAMPLE`].
    pub fn calibrate(&mut self) -> Result<(), String> {
        let start = Instant::now();
        self.bytes = (self.pass)()?;
        let once = start.elapsed().as_nanos().max(1);
        self.repeats = u32::try_from(MIN_SAMPLE.as_nanos().div_ceil(once)).unwrap_or(u32::MAX).max(1);
        Ok(())
    }

    /// Times one sample: `repeats` passes.
    pub fn sample(&mut self) -> Result<(), String> {
        let start = Instant::now();
        for _ in 0..self.repeats {
            self.bytes = (self.pass)()?;
        }
        self.samples.push(start.elapsed() / self.repeats);
        Ok(())
    }

    pub fn timing(&self) -> Timing {
        Timing::of(&self.samples)
    }
}

/// Median, fastest and slowest time of one pass over the samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub median: Duration,
    pub min: Duration,
    pub max: Duration,
}

impl Timing {
    pub fn of(samples: &[Duration]) -> Timing {
        let mut sorted = samples.to_vec();
        sorted.sort();
        let median = match sorted.len() {
            0 => Duration::ZERO,
            n if n % 2 == 1 => sorted[n / 2],
            n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
        };
        let (min, max) = (sorted.first().copied().unwrap_or_default(), sorted.last().copied().unwrap_or_default());
        Timing { median, min, max }
    }

    /// `(max - min) / median` in percent.
    pub fn spread_percent(&self) -> f64 {
        100.0 * (self.max - self.min).as_secs_f64() / self.median.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    /// Items per second at the median; a pass too short to time gives 0, never infinity.
    pub fn per_second(&self, items: usize) -> f64 {
        if self.median.is_zero() {
            0.0
        } else {
            items as f64 / self.median.as_secs_f64()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_spread_of_samples() {
        let ms = Duration::from_millis;
        let timing = Timing::of(&[ms(12), ms(10), ms(11), ms(30)]);
        assert_eq!(timing, Timing { median: Duration::from_micros(11_500), min: ms(10), max: ms(30) });
        assert!((timing.spread_percent() - 173.9).abs() < 0.1, "{}", timing.spread_percent());
        assert_eq!(timing.per_second(23), 2000.0);
        assert_eq!(Timing::of(&[]).per_second(5), 0.0);
    }

    #[test]
    fn a_sample_repeats_the_calibrated_pass_count() {
        let mut passes = 0u32;
        let mut contender = Contender::new(
            "sleeper",
            Box::new(|| {
                passes += 1;
                std::thread::sleep(Duration::from_millis(20));
                Ok(7)
            }),
        );
        contender.calibrate().unwrap();
        contender.sample().unwrap();
        let repeats = contender.repeats;
        assert_eq!((contender.bytes, contender.samples.len()), (7, 1));
        drop(contender);
        assert_eq!(passes, 1 + repeats);
    }
}
