//! The scoring of article-extraction benchmarks, as Zyte's
//! article-extraction-benchmark's `evaluate.py` does it, for sets that do
//! not come with that script (Mozilla Readability's test pages): the text
//! cut into `\w+` tokens, the 4-grams of tokens ("shingles") of the answer
//! and of the truth counted, true positives, false positives and false
//! negatives per page normalised to sum to 1, then precision and recall
//! averaged over pages and F1 taken from the two averages.

use std::collections::HashMap;

/// True positives, false positives, false negatives of one page, as
/// shares of their sum (a long page weighs as much as a short one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Counts {
    pub(crate) tp: f64,
    pub(crate) fp: f64,
    pub(crate) fn_: f64,
}

/// The `\w+` tokens of `text`: runs of letters, digits and underscores
/// (Python's `\w` in a Unicode pattern: what `str.isalnum()` accepts, and
/// `_`; Rust's `char::is_alphanumeric` is the nearest test).
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The 4-grams of `text`'s tokens, counted; a text of fewer than four
/// tokens is one shingle of all of them (none when it has none), as
/// `evaluate.py`'s `_ngrams` gives.
fn shingles(text: &str) -> HashMap<Vec<&str>, usize> {
    let tokens = tokens(text);
    let mut out: HashMap<Vec<&str>, usize> = HashMap::new();
    if tokens.is_empty() {
        return out;
    }
    if tokens.len() < 4 {
        *out.entry(tokens).or_insert(0) += 1;
        return out;
    }
    for gram in tokens.windows(4) {
        *out.entry(gram.to_vec()).or_insert(0) += 1;
    }
    out
}

/// One page's counts: `pred` (the extractor's answer) against `truth`.
pub(crate) fn score(truth: &str, pred: &str) -> Counts {
    let (t, p) = (shingles(truth), shingles(pred));
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    for (key, &tc) in &t {
        let pc = p.get(key).copied().unwrap_or(0);
        tp += tc.min(pc);
        fn_ += tc.saturating_sub(pc);
    }
    for (key, &pc) in &p {
        let tc = t.get(key).copied().unwrap_or(0);
        fp += pc.saturating_sub(tc);
    }
    let sum = (tp + fp + fn_) as f64;
    if sum == 0.0 {
        return Counts {
            tp: 0.0,
            fp: 0.0,
            fn_: 0.0,
        };
    }
    Counts {
        tp: tp as f64 / sum,
        fp: fp as f64 / sum,
        fn_: fn_ as f64 / sum,
    }
}

/// A page's precision (1 when it has neither false positives nor false
/// negatives, as `evaluate.py` says).
fn precision(c: Counts) -> f64 {
    if c.fp == 0.0 && c.fn_ == 0.0 {
        1.0
    } else if c.tp == 0.0 && c.fp == 0.0 {
        0.0
    } else {
        c.tp / (c.tp + c.fp)
    }
}

/// A page's recall.
fn recall(c: Counts) -> f64 {
    if c.fp == 0.0 && c.fn_ == 0.0 {
        1.0
    } else if c.tp == 0.0 && c.fn_ == 0.0 {
        0.0
    } else {
        c.tp / (c.tp + c.fn_)
    }
}

/// F1, precision and recall of a set of pages: the precisions of pages
/// with an answer averaged, the recalls of pages with a truth averaged.
pub(crate) fn metrics(pages: &[Counts]) -> (f64, f64, f64) {
    let mean = |xs: Vec<f64>| {
        if xs.is_empty() {
            0.0
        } else {
            xs.iter().sum::<f64>() / xs.len() as f64
        }
    };
    let p = mean(
        pages
            .iter()
            .filter(|c| c.tp + c.fp > 0.0)
            .map(|c| precision(*c))
            .collect(),
    );
    let r = mean(
        pages
            .iter()
            .filter(|c| c.tp + c.fn_ > 0.0)
            .map(|c| recall(*c))
            .collect(),
    );
    let f1 = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (f1, p, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shingles_are_four_grams_of_word_tokens() {
        assert_eq!(tokens("Hello, wörld_1! x"), vec!["Hello", "wörld_1", "x"]);
        let s = shingles("a b c d e");
        assert_eq!(s.len(), 2);
        assert_eq!(shingles("a b").get(&vec!["a", "b"]), Some(&1));
        assert!(shingles(" ,. ").is_empty());
    }

    #[test]
    fn scores_match_evaluate_py_by_hand() {
        // Truth: 3 shingles (a b c d, b c d e, c d e f); answer: 2 of them
        // and 1 more (d e f x).
        let c = score("a b c d e f", "b c d e f x");
        assert_eq!((c.tp, c.fp, c.fn_), (0.5, 0.25, 0.25));
        let (f1, p, r) = metrics(&[c, score("same words here now", "same words here now")]);
        assert!((p - (2.0 / 3.0 + 1.0) / 2.0).abs() < 1e-9);
        assert!((r - p).abs() < 1e-9 && (f1 - p).abs() < 1e-9);
    }
}
