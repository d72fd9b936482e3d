//! Property tests: every value written by a "valid … string" serializer is
//! valid and parses back to itself; the parsers agree with independent
//! reference implementations where one exists; and no public entry point
//! panics on any string.

// The strategies below are test helpers outside #[test] functions, which
// clippy.toml's allow-unwrap-in-tests does not cover: a panic there is a
// test failure too.
#![allow(clippy::unwrap_used)]

use microsyntax::algorithms::{ALGORITHMS, Algorithm, Options, Spec};
use microsyntax::*;
use proptest::prelude::*;

prop_compose! {
    fn date()(year in 1i32..=9999, month in 1u8..=12, day in 1u8..=31) -> Date {
        let day = day.min(days_in_month(year, month));
        Date::new(year, month, day).unwrap()
    }
}

prop_compose! {
    /// A time with millisecond precision (all a valid time string holds).
    fn time()(hour in 0u8..24, minute in 0u8..60, second in 0u8..60, millis in 0u32..1000, whole in any::<bool>()) -> Time {
        let (second, millis) = if whole { (0, 0) } else { (second, millis) };
        Time::new(hour, minute, second, millis * 1_000_000).unwrap()
    }
}

prop_compose! {
    fn offset()(hours in -23i8..=23, minutes in 0i8..=59) -> TimeZoneOffset {
        let minutes = if hours < 0 { -minutes } else { minutes };
        TimeZoneOffset::new(hours, minutes).unwrap()
    }
}

/// Strings made of the characters the microsyntaxes care about, so that the
/// parsers get deep into their steps.
fn syntax_soup() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "[0-9 \t\n\u{B}\u{A0}\u{3000}.,;:+\\-eETZWPDHMSYdhmswy%*#a-fx٪‰\u{1F600}]{0,40}",
    )
    .unwrap()
}

proptest! {
    #[test]
    fn integers_round_trip(n in any::<i64>()) {
        let s = n.to_string();
        prop_assert!(is_valid_integer(&s));
        prop_assert_eq!(parse_integer(&s), Ok(n));
        prop_assert_eq!(parse_integer_seed(&s), Ok(n));
    }

    #[test]
    fn non_negative_integers_round_trip(n in any::<u64>()) {
        let s = n.to_string();
        prop_assert!(is_valid_non_negative_integer(&s));
        prop_assert_eq!(parse_non_negative_integer(&s), Ok(n));
        prop_assert_eq!(parse_non_negative_integer_seed(&s), Ok(n));
    }

    #[test]
    fn best_representation_round_trips(bits in any::<u64>()) {
        let n = f64::from_bits(bits);
        match best_representation(n) {
            None => prop_assert!(!n.is_finite()),
            Some(s) => {
                prop_assert!(is_valid_float(&s), "{}", s);
                let back = parse_float(&s).unwrap();
                prop_assert!(back == n && (back.to_bits() == n.to_bits() || n == 0.0), "{} -> {}", s, back);
            }
        }
    }

    #[test]
    fn floats_agree_with_std(s in "-?([0-9]{1,30}|[0-9]{0,30}\\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?") {
        // `str::parse::<f64>` is correctly rounded; it is the reference.
        prop_assume!(is_valid_float(&s));
        let expected: f64 = s.parse().unwrap();
        // A valid float represents a finite number (2e308 is not valid).
        prop_assert!(expected.is_finite(), "{}", s);
        match parse_float(&s) {
            Ok(v) => prop_assert!(v == expected && v.is_sign_negative() == (expected < 0.0), "{} {} {}", s, v, expected),
            Err(e) => prop_assert!(false, "{} {:?}", s, e),
        }
    }

    #[test]
    fn floats_that_overflow_are_not_valid(s in "-?[1-9][0-9]{0,5}(\\.[0-9]{1,5})?[eE]\\+?(309|31[0-9]|[4-9][0-9]{2})") {
        prop_assert!(!is_valid_float(&s), "{}", s);
        prop_assert_eq!(parse_float(&s).map_err(|e| e.kind()), Err(ErrorKind::Overflow));
    }

    #[test]
    fn dates_round_trip(d in date()) {
        let s = d.to_string();
        prop_assert!(is_valid_date_string(&s));
        prop_assert_eq!(parse_date(&s), Ok(d));
        let m = Month::new(d.year(), d.month()).unwrap();
        prop_assert!(is_valid_month_string(&m.to_string()));
        prop_assert_eq!(parse_month(&m.to_string()), Ok(m));
        let y = YearlessDate::new(d.month(), d.day()).unwrap();
        prop_assert!(is_valid_yearless_date_string(&y.to_string()));
        prop_assert_eq!(parse_yearless_date(&y.to_string()), Ok(y));
    }

    #[test]
    fn weeks_round_trip(year in 1i32..=MAX_YEAR, week in 1u8..=53) {
        let week = week.min(weeks_in_year(year));
        let w = Week::new(year, week).unwrap();
        prop_assert!(is_valid_week_string(&w.to_string()));
        prop_assert_eq!(parse_week(&w.to_string()), Ok(w));
    }

    /// Living standard: years of four or more digits, serialized and read
    /// back, up to the crate's limit.
    #[test]
    fn dates_of_any_year_round_trip(year in 1i32..=MAX_YEAR, month in 1u8..=12, day in 1u8..=31, t in time()) {
        let d = Date::new(year, month, day.min(days_in_month(year, month))).unwrap();
        let s = d.to_string();
        prop_assert!(is_valid_date_string(&s), "{}", s);
        prop_assert_eq!(parse_date(&s), Ok(d));
        let m = Month::new(year, month).unwrap();
        prop_assert!(is_valid_month_string(&m.to_string()));
        prop_assert_eq!(parse_month(&m.to_string()), Ok(m));
        let dt = LocalDateTime::new(d, t);
        prop_assert!(is_valid_normalized_local_date_time_string(&dt.to_string()));
        prop_assert_eq!(parse_local_date_time(&dt.to_string()), Ok(dt));
        let g = GlobalDateTime::new(d, t, TimeZoneOffset::UTC);
        prop_assert!(is_valid_date_string_with_optional_time(&g.to_string()));
        prop_assert_eq!(parse_global_date_time(&g.to_string()), Ok(g));
    }

    #[test]
    fn times_round_trip(t in time(), nanos in 0u32..1_000_000_000) {
        let s = t.to_string();
        prop_assert!(is_valid_time_string(&s), "{}", s);
        prop_assert_eq!(parse_time(&s), Ok(t));
        // Any precision parses back, though only milliseconds are valid.
        let fine = Time::new(t.hour(), t.minute(), t.second(), nanos).unwrap();
        prop_assert_eq!(parse_time(&fine.to_string()), Ok(fine));
    }

    #[test]
    fn local_date_times_round_trip(d in date(), t in time()) {
        let dt = LocalDateTime::new(d, t);
        let s = dt.to_string();
        prop_assert!(is_valid_normalized_local_date_time_string(&s), "{}", s);
        prop_assert!(is_valid_local_date_time_string(&s));
        prop_assert_eq!(parse_local_date_time(&s), Ok(dt));
    }

    #[test]
    fn offsets_round_trip(o in offset()) {
        let s = o.to_string();
        prop_assert!(is_valid_time_zone_offset_string(&s), "{}", s);
        prop_assert_eq!(parse_time_zone_offset(&s), Ok(o));
    }

    #[test]
    fn global_date_times_round_trip(d in date(), t in time(), o in offset()) {
        let g = GlobalDateTime::new(d, t, o);
        let s = g.to_string();
        prop_assert!(is_valid_global_date_time_string(&s), "{}", s);
        prop_assert_eq!(parse_global_date_time(&s), Ok(g));
        prop_assert_eq!(parse_date_or_time(&s), Ok(DateOrTime::GlobalDateTime(g)));
        // The seed's datetime reads the same string (its syntax is wider).
        prop_assert_eq!(parse_datetime(&s), Ok(g));
        // The normalized form is the same moment in UTC.
        let utc = g.to_utc();
        prop_assume!(utc.date().year() >= 1);
        let n = g.to_normalized_string();
        prop_assert!(is_valid_normalized_global_date_time_string(&n), "{}", n);
        let back = parse_global_date_time(&n).unwrap();
        prop_assert_eq!(back.to_utc(), utc);
        prop_assert_eq!(back.offset(), TimeZoneOffset::UTC);
    }

    #[test]
    fn date_or_time_round_trips(d in date(), t in time()) {
        prop_assert!(is_valid_date_string_with_optional_time(&d.to_string()));
        prop_assert_eq!(parse_date_or_time(&d.to_string()), Ok(DateOrTime::Date(d)));
        prop_assert_eq!(parse_date_or_time(&t.to_string()), Ok(DateOrTime::Time(t)));
        let r = parse_date_or_time_string(&t.to_string(), Context::Attribute);
        prop_assert!(r.valid);
        prop_assert_eq!(r.time, Some(t));
    }

    #[test]
    fn durations_round_trip(seconds in 0u64..10_000_000_000, millis in 0u32..1000) {
        let d = Duration::new(seconds, millis * 1_000_000).unwrap();
        for s in [d.to_string(), d.to_component_string()] {
            prop_assert!(is_valid_duration_string(&s), "{}", s);
            prop_assert_eq!(parse_duration(&s), Ok(d), "{}", s);
        }
    }

    #[test]
    fn colors_round_trip(red in any::<u8>(), green in any::<u8>(), blue in any::<u8>()) {
        let c = SimpleColor { red, green, blue };
        let s = c.to_string();
        prop_assert!(is_valid_lowercase_simple_color(&s));
        prop_assert_eq!(parse_simple_color(&s), Ok(c));
        prop_assert_eq!(parse_legacy_color(&s), Ok(c));
    }

    #[test]
    fn dimensions_round_trip(n in 0u32..1_000_000, tenths in 0u32..10, percent in any::<bool>()) {
        let s = format!("{n}.{tenths}{}", if percent { "%" } else { "" });
        prop_assert!(is_valid_dimension(&s));
        let d = parse_dimension(&s).unwrap();
        prop_assert_eq!(d.value, format!("{n}.{tenths}").parse::<f64>().unwrap());
        prop_assert_eq!(d.kind == DimensionType::Percentage, percent);
    }

    #[test]
    fn integer_lists_round_trip(v in proptest::collection::vec(any::<i64>().prop_filter("not MIN", |&n| n != i64::MIN), 0..20)) {
        let s = v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        prop_assert!(is_valid_list_of_integers(&s));
        prop_assert_eq!(parse_list_of_integers(&s), v.clone());
        prop_assert_eq!(parse_list_of_integers_seed004(&s), v);
    }

    #[test]
    fn tokens_round_trip(v in proptest::collection::vec("[^ \t\n\u{C}\r]{1,8}", 0..10)) {
        let s = v.join(" ");
        prop_assert_eq!(split_on_spaces(&s), v.iter().map(String::as_str).collect::<Vec<_>>());
        let commas = v.iter().map(|t| t.replace(',', "")).collect::<Vec<_>>();
        prop_assume!(commas.iter().all(|t| !t.is_empty() && t.trim_matches(is_space_character) == t));
        let joined = commas.join(",");
        prop_assert_eq!(split_on_commas(&joined), commas.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn integers_agree_with_std(s in "[ \t]{0,2}[+-]?[0-9]{1,25}[a-z]{0,2}") {
        let digits = s.trim_start_matches([' ', '\t']).trim_end_matches(|c: char| c.is_ascii_lowercase());
        let expected = digits.parse::<i64>().ok();
        prop_assert_eq!(parse_integer(&s).ok(), expected);
    }

    #[test]
    fn nothing_panics_on_soup(s in syntax_soup()) {
        exercise(&s);
    }

    #[test]
    fn nothing_panics_on_any_string(s in any::<String>()) {
        exercise(&s);
    }
}

/// The options for `a`, with every extra it takes set from `s` (and the
/// keywords from `keywords`).
fn options<'a>(
    a: &Algorithm,
    spec: Spec,
    context: Context,
    s: &'a str,
    keywords: &'a [&'a str],
) -> Options<'a> {
    use microsyntax::algorithms::Extra;
    let takes = |e| a.options.contains(&e).then_some(s);
    Options {
        spec,
        context,
        base: None,
        keywords: takes(Extra::Keywords).map(|_| keywords),
        invalid_default: takes(Extra::InvalidDefault),
        missing_default: takes(Extra::MissingDefault),
        attribute: takes(Extra::Attribute),
        token: takes(Extra::Token),
        other: takes(Extra::Other),
    }
}

/// Calls every public parser and check on `s`.
fn exercise(s: &str) {
    let keywords: Vec<&str> = s.split(',').collect();
    for a in ALGORITHMS {
        for &spec in a.specs {
            let _ = a.run(options(a, spec, Context::Attribute, s, &keywords), s);
            if a.has_content_variant {
                let _ = a.run(options(a, spec, Context::Content, s, &keywords), s);
            }
        }
    }
    let _ = parse_positive_non_zero_integer(s);
    let _ = parse_list_of_floats(s);
    let _ = is_valid_list_of_floats(s);
    let _ = parse_hash_name_reference(s);
    let _ = remove_token(s, "a");
    let _ = remove_token_seed004(s, "1");
    let _ = compatibility_caseless_eq(s, "ǅ");
    let _ = strip_and_collapse_whitespace(s);
    let _ = strictly_split(s, ',');
    let _ = strip_line_breaks(s);
    let _ = named_color(s);
    let _ = is_valid_boolean_attribute_value("checked", s);
    let _ = is_valid_hash_name_reference(s);
    let _ = is_valid_positive_non_zero_integer(s);
    let _ = parse_date_or_time_string_seed004(s, Context::Attribute);
    let mut cursor = Cursor::new(s);
    while !cursor.is_at_end() {
        cursor.skip_white_space_characters();
        cursor.collect_digits();
        cursor.advance();
    }
}

#[test]
fn long_hostile_inputs_complete() {
    // Long runs of the characters each algorithm loops over. (That time
    // grows linearly is shown by the `pathological_*` benchmarks; tests do
    // not assert on timings.)
    let n = 20_000;
    let inputs = [
        "9".repeat(n),
        format!("0.{}", "0".repeat(n)),
        "-".repeat(n),
        " ".repeat(n),
        "1,".repeat(n / 2),
        "a ".repeat(n / 2),
        "\u{301}".repeat(n / 2),
        format!("{}-01-01", "0".repeat(n)),
        "1h".repeat(n / 2),
        "#".repeat(n),
    ];
    for s in &inputs {
        exercise(s);
    }
    assert_eq!(parse_list_of_integers(&inputs[4]).len(), n / 2);
    assert_eq!(remove_token(&inputs[5], "a"), "");
    assert_eq!(parse_float(&inputs[1]), Ok(0.0));
}
