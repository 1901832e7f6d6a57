//! The Elo difference a match result implies, with its 95% error bar.
//!
//! Each sample is one scoring unit's points as a fraction (a game: 1, 1/2 or
//! 0; an opening pair: its points out of 2, halved). The mean score `s`
//! gives the difference `-400 log10(1/s - 1)`; the error bar maps
//! `s ± 1.96 σ/√n` (σ: the samples' standard deviation) through the same
//! curve. Scoring pairs rather than games takes the correlation of the two
//! games of an opening into account, as fishtest's pentanomial model does.
use serde::Serialize;

/// Standard normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// An Elo difference estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The estimated difference (first player minus second); `None` when
    /// one side scored every point (the difference is unbounded).
    pub diff: Option<f64>,
    /// Half the width of the 95% interval; `None` when the interval reaches
    /// a score of 0 or 1 (unbounded).
    pub margin: Option<f64>,
    /// The mean score of the samples (0 to 1).
    pub score: f64,
    /// How many samples (games or pairs) it rests on.
    pub samples: u32,
}

/// The Elo difference for a mean score strictly between 0 and 1.
fn elo_of(score: f64) -> Option<f64> {
    // `+ 0.0` turns the -0 of an even score into 0.
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10() + 0.0)
}

/// Estimates the difference from samples given as (points fraction, count)
/// pairs; `None` without any sample.
pub fn estimate(samples: &[(f64, u32)]) -> Option<EloEstimate> {
    let n: u32 = samples.iter().map(|&(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let nf = f64::from(n);
    let mean = samples.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / nf;
    let variance = samples
        .iter()
        .map(|&(x, c)| (x - mean).powi(2) * f64::from(c))
        .sum::<f64>()
        / nf;
    let half = Z95 * (variance / nf).sqrt();
    let margin = match (elo_of(mean - half), elo_of(mean + half)) {
        (Some(lo), Some(hi)) if n > 1 => Some((hi - lo) / 2.0),
        _ => None,
    };
    Some(EloEstimate {
        diff: elo_of(mean),
        margin,
        score: mean,
        samples: n,
    })
}

impl EloEstimate {
    /// `+35 ± 120`, `+inf`, `-12 ± inf`.
    pub fn text(&self) -> String {
        let diff = match self.diff {
            Some(d) => format!("{d:+.0}"),
            None if self.score >= 1.0 => "+inf".to_string(),
            None => "-inf".to_string(),
        };
        match (self.diff, self.margin) {
            (Some(_), Some(m)) => format!("{diff} ± {m:.0}"),
            (Some(_), None) => format!("{diff} ± inf"),
            (None, _) => diff,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_zero_elo() {
        let e = estimate(&[(1.0, 10), (0.0, 10)]).unwrap();
        assert_eq!(e.diff, Some(0.0));
        // s = 0.5, sigma = 0.5, n = 20: 0.5 +- 0.219 -> about +-163 Elo.
        let m = e.margin.unwrap();
        assert!((m - 163.0).abs() < 3.0, "{m}");
        assert_eq!(e.text(), format!("+0 ± {m:.0}"));
    }

    #[test]
    fn three_quarters_is_plus_191() {
        let e = estimate(&[(1.0, 60), (0.5, 30), (0.0, 10)]).unwrap();
        // 75 points of 100.
        assert!((e.diff.unwrap() - 190.85).abs() < 0.1, "{e:?}");
        assert!(e.margin.unwrap() > 0.0);
        assert!(e.text().starts_with("+191 ± "), "{}", e.text());
    }

    #[test]
    fn more_games_narrow_the_bar() {
        let few = estimate(&[(1.0, 6), (0.0, 4)]).unwrap();
        let many = estimate(&[(1.0, 600), (0.0, 400)]).unwrap();
        assert!((few.diff.unwrap() - many.diff.unwrap()).abs() < 1e-9);
        assert!(many.margin.unwrap() * 5.0 < few.margin.unwrap());
    }

    #[test]
    fn a_whitewash_has_no_finite_difference() {
        let e = estimate(&[(1.0, 8)]).unwrap();
        assert_eq!(e.diff, None);
        assert_eq!(e.text(), "+inf");
        assert_eq!(estimate(&[(0.0, 3)]).unwrap().text(), "-inf");
        assert_eq!(estimate(&[]), None);
        // One game cannot bound the error.
        assert_eq!(estimate(&[(0.5, 1)]).unwrap().margin, None);
    }
}
