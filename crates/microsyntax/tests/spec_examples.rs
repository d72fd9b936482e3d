//! Every example the seeds (002, 004) and the reference give for the common
//! microsyntaxes, in one place, checked against the public API. (The
//! failure branch of each step is tested next to each algorithm, in the
//! crate's unit tests.)

use microsyntax::*;

#[test]
fn seed002_2_3_case_sensitivity() {
    // A–Z and a–z match; nothing else folds.
    assert!(eq_ascii_case_insensitive("HTTP-EQUIV", "http-equiv"));
    assert_eq!(to_ascii_uppercase("a-z"), "A-Z");
    assert_eq!(to_ascii_lowercase("A-Z"), "a-z");
}

#[test]
fn seed002_2_4_2_and_reference_boolean_attributes() {
    // <input type="checkbox" checked name="cheese" disabled>
    assert!(boolean_attribute_state(Some("")));
    assert!(is_valid_boolean_attribute_value("checked", ""));
    // checked="checked" disabled="disabled"
    assert!(is_valid_boolean_attribute_value("checked", "checked"));
    assert!(is_valid_boolean_attribute_value("disabled", "disabled"));
    // "true" and "false" are not allowed; absence is the false value.
    assert!(!is_valid_boolean_attribute_value("checked", "true"));
    assert!(!is_valid_boolean_attribute_value("checked", "false"));
    assert!(boolean_attribute_state(Some("false")));
    assert!(!boolean_attribute_state(None));
}

#[test]
fn seed002_2_4_7_contenteditable() {
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum State {
        True,
        False,
    }
    // "true" and the empty string map to True; "false" to False; False is
    // also the invalid value default; there is no missing value default.
    static CONTENTEDITABLE: EnumeratedAttribute<State> = EnumeratedAttribute {
        keywords: &[
            Keyword::new("true", State::True),
            Keyword::new("", State::True),
            Keyword::new("false", State::False),
        ],
        invalid_value_default: Some(State::False),
        missing_value_default: None,
    };
    assert_eq!(CONTENTEDITABLE.state(Some("")), Some(State::True));
    assert_eq!(CONTENTEDITABLE.state(Some("TRUE")), Some(State::True));
    assert_eq!(CONTENTEDITABLE.state(Some("false")), Some(State::False));
    assert_eq!(CONTENTEDITABLE.state(Some("inherit")), Some(State::False));
    assert_eq!(CONTENTEDITABLE.state(None), None);
}

#[test]
fn seed002_2_4_3_4_denominator_punctuation_table() {
    let table = [
        ('%', 100),
        ('\u{66A}', 100),
        ('\u{FE6A}', 100),
        ('\u{FF05}', 100),
        ('\u{2030}', 1000),
        ('\u{2031}', 10000),
    ];
    for (c, value) in table {
        assert_eq!(denominator_punctuation_value(c), Some(value), "{c}");
        assert_eq!(
            parse_ratio(&format!("7{c}")),
            Some(Ratio::WithDenominator(
                7.0,
                DenominatorPunctuation {
                    character: c,
                    value
                }
            ))
        );
    }
}

#[test]
fn seed002_2_4_3_6_list_of_integers() {
    // "This happens if an entry in the list has no digits, as in 1,2,x,4."
    assert_eq!(parse_list_of_integers("1,2,x,4"), [1, 2]);
    // A valid list: valid integers separated by commas, no spaces.
    assert!(is_valid_list_of_integers("1,2,3"));
    assert!(!is_valid_list_of_integers("1, 2, 3"));
}

#[test]
fn seed002_2_4_4_1_datetime_examples() {
    // "0037-12-13 00:00 Z": midnight UTC on the birthday of Nero.
    let nero = parse_datetime("0037-12-13 00:00 Z").unwrap();
    assert_eq!(nero.to_utc().to_string(), "0037-12-13T00:00");
    assert_eq!(nero.offset(), TimeZoneOffset::UTC);
    // "1979-10-14T12:00:00.001-04:00": one millisecond after noon, UTC−4.
    let t = parse_datetime("1979-10-14T12:00:00.001-04:00").unwrap();
    assert_eq!(t.time().nanosecond(), 1_000_000);
    assert_eq!(t.to_utc().to_string(), "1979-10-14T16:00:00.001");
    assert_eq!((t.offset().hours(), t.offset().minutes()), (-4, 0));
    // "8592-01-01 T 02:09 +02:09": midnight UTC, zone two hours nine minutes ahead.
    let t = parse_datetime("8592-01-01 T 02:09 +02:09").unwrap();
    assert_eq!(t.to_utc().to_string(), "8592-01-01T00:00");
    assert_eq!((t.offset().hours(), t.offset().minutes()), (2, 9));
    for s in [
        "0037-12-13 00:00 Z",
        "1979-10-14T12:00:00.001-04:00",
        "8592-01-01 T 02:09 +02:09",
    ] {
        assert!(is_valid_datetime(s), "{s}");
        assert!(parse_datetime_seed004(s).is_ok(), "{s}");
    }
}

#[test]
fn seed002_2_4_4_days_in_month() {
    assert_eq!(days_in_month(2000, 2), 29); // divisible by 400
    assert_eq!(days_in_month(1900, 2), 28); // by 100, not 400
    assert_eq!(days_in_month(2004, 2), 29); // by 4, not 100
    assert_eq!(days_in_month(2001, 2), 28);
    for m in [1, 3, 5, 7, 8, 10, 12] {
        assert_eq!(days_in_month(2001, m), 31);
    }
    for m in [4, 6, 9, 11] {
        assert_eq!(days_in_month(2001, m), 30);
    }
}

#[test]
fn seed002_2_4_5_remove_token_summary() {
    // "any occurrences of the token [are] removed from the string, and any
    // spaces that were surrounding the token [are] collapsed to a single
    // space, except at the start and end of the string, where such spaces
    // are removed."
    assert_eq!(remove_token("  x a   x   b x  ", "x"), "a b");
}

#[test]
fn seed002_2_4_8_hash_name_reference() {
    assert_eq!(parse_hash_name_reference("#map"), Some("map"));
    assert_eq!(parse_hash_name_reference("#"), None);
}

#[test]
fn reference_months() {
    // February 2005 is 2005-02; March 33 AD is 0033-03; 325-03 is an error.
    assert_eq!(
        parse_month("2005-02").unwrap(),
        Month::new(2005, 2).unwrap()
    );
    assert_eq!(parse_month("0033-03").unwrap(), Month::new(33, 3).unwrap());
    assert!(parse_month("325-03").is_err());
    assert!(is_valid_month_string("0033-03") && !is_valid_month_string("325-03"));
}

#[test]
fn reference_dates() {
    // 29 February 2016 is 2016-02-29; 3 March 33 AD is 0033-03-03;
    // 325-03-03 is an error.
    assert_eq!(
        parse_date("2016-02-29").unwrap(),
        Date::new(2016, 2, 29).unwrap()
    );
    assert_eq!(
        parse_date("0033-03-03").unwrap(),
        Date::new(33, 3, 3).unwrap()
    );
    assert!(parse_date("325-03-03").is_err());
    // The dates-and-times note: 1582-03-01, 0033-03-27, 2016-03-01,
    // 1929-11-13T19:00Z, 0325-06-03T00:21+10:30.
    for s in ["1582-03-01", "0033-03-27", "2016-03-01"] {
        assert!(is_valid_date_string(s), "{s}");
    }
    for s in ["1929-11-13T19:00Z", "0325-06-03T00:21+10:30"] {
        assert!(is_valid_global_date_time_string(s), "{s}");
    }
}

#[test]
fn reference_yearless_dates() {
    // 29 February is 02-29; 3 March is 03-03.
    assert_eq!(
        parse_yearless_date("02-29").unwrap(),
        YearlessDate::new(2, 29).unwrap()
    );
    assert_eq!(
        parse_yearless_date("03-03").unwrap(),
        YearlessDate::new(3, 3).unwrap()
    );
}

#[test]
fn reference_times() {
    // 7.45pm is 19:45, which parses to 19:45:00; 19:45:45.456 is 456
    // thousandths of a second after 19:45:45.
    assert_eq!(
        parse_time("19:45").unwrap(),
        Time::new(19, 45, 0, 0).unwrap()
    );
    assert_eq!(
        parse_time("19:45:45.456").unwrap(),
        Time::new(19, 45, 45, 456_000_000).unwrap()
    );
}

#[test]
fn reference_global_dates_and_times() {
    let nero = parse_global_date_time("0037-12-13 00:00Z").unwrap();
    assert_eq!(nero.date(), Date::new(37, 12, 13).unwrap());
    let t = parse_global_date_time("1979-10-14T12:00:00.001-04:00").unwrap();
    assert_eq!(t.to_normalized_string(), "1979-10-14T16:00:00.001Z");
    let t = parse_global_date_time("8592-01-01T02:09+02:09").unwrap();
    assert_eq!(t.to_normalized_string(), "8592-01-01T00:00Z");
    // "Years with fewer than four digits have to be zero-padded. The date
    // 37-12-13 is not a valid date."
    assert!(!is_valid_date_string("37-12-13"));
    assert!(parse_date("37-12-13").is_err());
    // "If the T is replaced by a space, it must be a single space."
    assert!(parse_global_date_time("2001-12-21  12:00Z").is_err());
    // "The time and time-zone offset components are not optional."
    assert!(parse_global_date_time("2001-12-21").is_err());
    assert!(parse_global_date_time("2001-12-21T12:00").is_err());
}

#[test]
fn reference_comma_separated_tokens() {
    // " a ,b, ,d d " has four tokens: "a", "b", the empty string, "d d".
    assert_eq!(
        split_on_commas("\u{20}a\u{20},b,\u{20},d\u{20}d\u{20}"),
        ["a", "b", "", "d d"]
    );
}

#[test]
fn seed004_differences() {
    // VT is a space character in seed 004 only.
    assert!(is_space_character_seed004('\u{B}') && !is_space_character('\u{B}'));
    assert_eq!(split_on_spaces_seed004("a\u{B}b"), ["a", "b"]);
    // Floats: a point anywhere, no exponent.
    assert!(is_valid_float_seed004(".5") && is_valid_float_seed004("5."));
    assert!(!is_valid_float_seed004("5e1"));
    // Boolean attributes: the canonical name exactly, in lowercase.
    assert!(!is_valid_boolean_attribute_value_seed004(
        "checked", "CHECKED"
    ));
    // Date or time strings in content skip Zs characters, not White_Space.
    assert!(parse_date_or_time_string_seed004("\u{2002}10:00", Context::Content).valid);
    assert!(!parse_date_or_time_string_seed004("\t10:00", Context::Content).valid);
}
