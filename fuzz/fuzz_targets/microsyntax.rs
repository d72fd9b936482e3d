//! Every microsyntax parser: the first byte picks the algorithm (and the
//! draft), the rest is the input. Total: a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use microsyntax::algorithms::{ALGORITHMS, Options};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Some(algorithm) = ALGORITHMS.get(usize::from(first) % ALGORITHMS.len()) else {
        return;
    };
    let input = String::from_utf8_lossy(rest);
    for &spec in algorithm.specs {
        let outcome = algorithm.run(
            Options {
                spec,
                ..Options::default()
            },
            &input,
        );
        if let Ok(outcome) = outcome {
            // Deterministic.
            let again = algorithm.run(
                Options {
                    spec,
                    ..Options::default()
                },
                &input,
            );
            assert!(again.is_ok_and(|a| format!("{a:?}") == format!("{outcome:?}")));
        }
    }
    if algorithm.has_content_variant {
        let _ = algorithm.run(
            Options {
                context: microsyntax::Context::Content,
                ..Options::default()
            },
            &input,
        );
    }
});
