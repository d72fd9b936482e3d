//! The JSON shapes of the `serde` feature, as `pagetext micro --json` prints
//! them. Run with `--features serde` (or whenever another crate of the
//! workspace enables the feature).
#![cfg(feature = "serde")]
// `check` is a helper outside #[test] functions: a panic is a test failure.
#![allow(clippy::unwrap_used)]

use microsyntax::algorithms::{Options, Spec, run};
use microsyntax::{Context, Error, ErrorKind};

#[track_caller]
fn check(algorithm: &str, options: Options, input: &str, expected: &str) {
    let outcome = run(algorithm, options, input).unwrap();
    let json = serde_json::to_string(&outcome).unwrap();
    assert_eq!(json, expected, "{algorithm} {input:?}");
}

#[track_caller]
fn check_default(algorithm: &str, input: &str, expected: &str) {
    check(algorithm, Options::default(), input, expected);
}

#[test]
fn numbers_are_numbers() {
    check_default(
        "integer",
        "-42",
        r#"{"valid":true,"value":-42,"error":null}"#,
    );
    check_default(
        "integer",
        "x",
        r#"{"valid":false,"value":null,"error":"expected an ASCII digit at byte 0"}"#,
    );
    check_default(
        "non-negative-integer",
        " 7",
        r#"{"valid":false,"value":7,"error":null}"#,
    );
    check_default(
        "float",
        "1.5e3",
        r#"{"valid":true,"value":1500,"error":null}"#,
    );
    check_default("float", "0.1", r#"{"valid":true,"value":0.1,"error":null}"#);
    check(
        "float",
        Options {
            spec: Spec::Seed002,
            ..Options::default()
        },
        "1e+3",
        r#"{"valid":false,"value":1,"error":null}"#,
    );
    check_default(
        "integers",
        "1,-2;x",
        r#"{"valid":false,"value":[1,-2],"error":null}"#,
    );
    check_default(
        "ratio",
        "3/4",
        r#"{"valid":true,"value":{"number1":3,"number2":4},"error":null}"#,
    );
    check_default(
        "ratio",
        "75%",
        r#"{"valid":true,"value":{"number1":75,"denominator":100,"punctuation":"%"},"error":null}"#,
    );
    check_default(
        "ratio",
        "0.5",
        r#"{"valid":true,"value":{"number1":0.5},"error":null}"#,
    );
}

#[test]
fn dimensions() {
    check_default(
        "dimension",
        "50%",
        r#"{"valid":true,"value":{"value":50,"type":"percentage"},"error":null}"#,
    );
    check_default(
        "dimension",
        "12.5px",
        r#"{"valid":false,"value":{"value":12.5,"type":"length"},"error":null}"#,
    );
    check_default(
        "nonzero-dimension",
        "0",
        r#"{"valid":false,"value":null,"error":"zero where a non-zero value is required at byte 0"}"#,
    );
    check_default(
        "dimensions",
        "1*, 20%, 100",
        r#"{"valid":true,"value":[{"value":1,"type":"relative"},{"value":20,"type":"percentage"},{"value":100,"type":"absolute"}],"error":null}"#,
    );
}

#[test]
fn dates_and_times_are_objects() {
    check_default(
        "date",
        "2016-02-29",
        r#"{"valid":true,"value":{"year":2016,"month":2,"day":29},"error":null}"#,
    );
    check_default(
        "month",
        "2005-02",
        r#"{"valid":true,"value":{"year":2005,"month":2},"error":null}"#,
    );
    check_default(
        "week",
        "2004-W53",
        r#"{"valid":true,"value":{"year":2004,"week":53},"error":null}"#,
    );
    check_default(
        "yearless-date",
        "--02-29",
        r#"{"valid":true,"value":{"month":2,"day":29},"error":null}"#,
    );
    check_default(
        "time",
        "19:45:45.456",
        r#"{"valid":true,"value":{"hour":19,"minute":45,"second":45.456},"error":null}"#,
    );
    check_default(
        "time",
        "19:45",
        r#"{"valid":true,"value":{"hour":19,"minute":45,"second":0},"error":null}"#,
    );
    check_default(
        "local-date-time",
        "2004-12-31 23:59",
        r#"{"valid":true,"value":{"year":2004,"month":12,"day":31,"hour":23,"minute":59,"second":0},"error":null}"#,
    );
    check_default(
        "time-zone-offset",
        "-00:30",
        r#"{"valid":true,"value":{"hours":0,"minutes":-30},"error":null}"#,
    );
    check_default(
        "time-zone-offset",
        "-00:00",
        r#"{"valid":false,"value":{"hours":0,"minutes":0},"error":null}"#,
    );
    check_default(
        "global-date-time",
        "1979-10-14T12:00:00.001-04:00",
        concat!(
            r#"{"valid":true,"value":{"year":1979,"month":10,"day":14,"hour":12,"minute":0,"second":0.001,"#,
            r#""timezone":{"hours":-4,"minutes":0},"#,
            r#""utc":{"year":1979,"month":10,"day":14,"hour":16,"minute":0,"second":0.001}},"#,
            r#""error":null}"#
        ),
    );
    check_default(
        "duration",
        "1h 30m 0.5s",
        r#"{"valid":true,"value":{"seconds":5400.5},"error":null}"#,
    );
    check_default(
        "duration",
        "P1M",
        r#"{"valid":false,"value":null,"error":"a duration cannot contain months or years at byte 0"}"#,
    );
}

#[test]
fn vaguer_moments() {
    check_default(
        "date-with-optional-time",
        "2011-11-18",
        r#"{"valid":true,"value":{"kind":"date","year":2011,"month":11,"day":18},"error":null}"#,
    );
    check_default(
        "date-with-optional-time",
        "14:54",
        r#"{"valid":false,"value":{"kind":"time","hour":14,"minute":54,"second":0},"error":null}"#,
    );
    check_default(
        "datetime",
        "8592-01-01 T 02:09 +02:09",
        concat!(
            r#"{"valid":true,"value":{"year":8592,"month":1,"day":1,"hour":2,"minute":9,"second":0,"#,
            r#""timezone":{"hours":2,"minutes":9},"#,
            r#""utc":{"year":8592,"month":1,"day":1,"hour":0,"minute":0,"second":0}},"#,
            r#""error":null}"#
        ),
    );
    check_default(
        "date-or-time",
        "208-10-11 12:00",
        r#"{"valid":false,"value":{"date":{"year":208,"month":10,"day":11},"time":{"hour":12,"minute":0,"second":0},"timezone":null},"error":null}"#,
    );
    check(
        "date-or-time",
        Options {
            context: Context::Content,
            ..Options::default()
        },
        "\u{3000}12:00",
        r#"{"valid":true,"value":{"date":null,"time":{"hour":12,"minute":0,"second":0},"timezone":null},"error":null}"#,
    );
    check_default(
        "date-or-time",
        "nonsense",
        r#"{"valid":false,"value":null,"error":null}"#,
    );
}

#[test]
fn tokens_and_colors() {
    check_default(
        "tokens",
        " a  b ",
        r#"{"valid":true,"value":["a","b"],"error":null}"#,
    );
    check_default(
        "unique-tokens",
        "a b a",
        r#"{"valid":false,"value":["a","b"],"error":null}"#,
    );
    check_default(
        "commas",
        " a , b",
        r#"{"valid":true,"value":["a","b"],"error":null}"#,
    );
    check(
        "commas",
        Options {
            spec: Spec::Seed002,
            ..Options::default()
        },
        " a , b",
        r#"{"valid":true,"value":[" a "," b"],"error":null}"#,
    );
    check_default(
        "color",
        "#FF8000",
        r#"{"valid":true,"value":{"red":255,"green":128,"blue":0},"error":null}"#,
    );
    check_default(
        "legacy-color",
        "chucknorris",
        r#"{"valid":false,"value":{"red":192,"green":0,"blue":0},"error":null}"#,
    );
}

#[test]
fn errors() {
    let e = Error::new(ErrorKind::Expected("an ASCII digit"), 3);
    assert_eq!(
        serde_json::to_string(&e).unwrap(),
        r#"{"message":"expected an ASCII digit","position":3}"#
    );
}

#[cfg(feature = "url")]
#[test]
fn urls_are_objects_of_components() {
    check(
        "url",
        Options {
            base: Some("http://a/b/c/d;p?q"),
            ..Options::default()
        },
        "../g?x#y",
        r#"{"valid":true,"value":{"href":"http://a/b/g?x#y","scheme":"http","host":"a","port":null,"path":"/b/g","query":"x","fragment":"y"},"error":null}"#,
    );
    check(
        "url",
        Options {
            spec: Spec::Seed002,
            ..Options::default()
        },
        "a b:c",
        r#"{"valid":false,"value":null,"error":"a relative reference's first path segment has a colon (seed 002 §2.5.2 step 3)"}"#,
    );
}

#[test]
fn the_rest_of_the_library() {
    use microsyntax::algorithms::Options;
    check(
        "enumerated",
        Options {
            keywords: Some(&["ltr", "rtl"]),
            invalid_default: Some("auto"),
            ..Options::default()
        },
        "LTR",
        r#"{"valid":true,"value":"ltr","error":null}"#,
    );
    check(
        "boolean",
        Options {
            attribute: Some("checked"),
            ..Options::default()
        },
        "false",
        r#"{"valid":false,"value":true,"error":null}"#,
    );
    check_default(
        "hash-name-reference",
        "#map1",
        r#"{"valid":true,"value":"map1","error":null}"#,
    );
    check_default(
        "floats",
        "1.5,2e1,-3",
        r#"{"valid":true,"value":[1.5,20,-3],"error":null}"#,
    );
    check_default(
        "positive-non-zero-integer",
        "0",
        r#"{"valid":false,"value":null,"error":"zero where a non-zero value is required at byte 0"}"#,
    );
}
