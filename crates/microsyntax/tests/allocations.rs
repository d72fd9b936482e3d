//! The number, date and time parsers do not allocate. A counting global
//! allocator (in this test binary only) measures every call. The binary has
//! no libtest harness (`harness = false`): libtest prints from another
//! thread while a test runs, which a global counter would see.

use std::alloc::System;
use std::hint::black_box;

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const NUMBERS: &[&str] = &[
    "",
    " ",
    "0",
    "-0",
    "+1",
    "  42px",
    "-9223372036854775808",
    "99999999999999999999999",
    "x",
    "-",
    "1.5",
    ".5",
    "5.",
    "1e3",
    "1.5e-3",
    "-1E+308",
    "1e400",
    "1e-400",
    "0.1",
    "9007199254740993",
    "50%",
    "12.5%",
    "3 of 4",
    "75‰",
    "1..2",
    "  +7.25%",
    "1,2,3",
    "1, -2; 3",
    "1,2,x,4",
];

const DATES: &[&str] = &[
    "",
    "2005-02",
    "0033-03",
    "325-03",
    "2016-02-29",
    "2015-02-29",
    "02-29",
    "--02-29",
    "19:45",
    "19:45:45.456",
    "23:59:59.123456789",
    "24:00",
    "1985-04-12T23:20:50.52",
    "2004-12-31 23:59",
    "Z",
    "+05:30",
    "-0800",
    "+24:00",
    "0037-12-13 00:00Z",
    "1979-10-14T12:00:00.001-04:00",
    "8592-01-01T02:09+02:09",
    "2004-W53",
    "2005-W53",
    "0037-12-13 00:00 Z",
    "8592-01-01 T 02:09 +02:09",
    " 2008-10-11 T 14:30 +01:00 ",
    "2011-11-18",
    "14:54",
    "2011-11-18T14:54Z",
    "PT4H18M3S",
    "4h 18m 3s",
    "P1M",
    ".5s",
    "99999999999999999999w",
    "#ff8000",
    "chucknorris",
    "transparent",
    "#abc",
];

fn main() {
    parsers_do_not_allocate();
    println!("allocations: the number, date and time parsers made 0 allocations");
}

fn parsers_do_not_allocate() {
    // Inputs built before measuring: a long number and a long date field.
    let long_number = format!("0.{}1e50", "0".repeat(3000));
    let long_year = format!("{}2016-02-29", "0".repeat(3000));
    let extra = [long_number.as_str(), long_year.as_str()];

    let region = Region::new(GLOBAL);
    for &s in NUMBERS.iter().chain(&extra) {
        let _ = black_box(microsyntax::parse_integer(black_box(s)));
        let _ = black_box(microsyntax::parse_integer_seed(s));
        let _ = black_box(microsyntax::parse_integer_seed004(s));
        let _ = black_box(microsyntax::parse_non_negative_integer(s));
        let _ = black_box(microsyntax::parse_non_negative_integer_seed(s));
        let _ = black_box(microsyntax::parse_positive_non_zero_integer(s));
        let _ = black_box(microsyntax::parse_float(s));
        let _ = black_box(microsyntax::parse_float_seed(s));
        let _ = black_box(microsyntax::parse_float_seed004(s));
        let _ = black_box(microsyntax::parse_dimension(s));
        let _ = black_box(microsyntax::parse_non_zero_dimension(s));
        let _ = black_box(microsyntax::parse_ratio(s));
        let _ = black_box(microsyntax::integer_list(s).sum::<i64>());
        let _ = black_box(microsyntax::float_list(s).sum::<f64>());
        black_box(microsyntax::is_valid_integer(s));
        black_box(microsyntax::is_valid_float(s));
        black_box(microsyntax::is_valid_float_seed(s));
        black_box(microsyntax::is_valid_float_seed004(s));
        black_box(microsyntax::is_valid_dimension(s));
        black_box(microsyntax::is_valid_list_of_integers(s));
    }
    for &s in DATES.iter().chain(&extra) {
        let _ = black_box(microsyntax::parse_month(black_box(s)));
        let _ = black_box(microsyntax::parse_date(s));
        let _ = black_box(microsyntax::parse_yearless_date(s));
        let _ = black_box(microsyntax::parse_time(s));
        let _ = black_box(microsyntax::parse_local_date_time(s));
        let _ = black_box(microsyntax::parse_time_zone_offset(s));
        let _ = black_box(microsyntax::parse_global_date_time(s));
        let _ = black_box(microsyntax::parse_global_date_time(s).map(|g| g.to_utc()));
        let _ = black_box(microsyntax::parse_week(s));
        let _ = black_box(microsyntax::parse_date_or_time(s));
        let _ = black_box(microsyntax::parse_datetime(s));
        let _ = black_box(microsyntax::parse_datetime_seed004(s));
        let _ = black_box(microsyntax::parse_date_or_time_string(
            s,
            microsyntax::Context::Attribute,
        ));
        let _ = black_box(microsyntax::parse_date_or_time_string(
            s,
            microsyntax::Context::Content,
        ));
        let _ = black_box(microsyntax::parse_date_or_time_string_seed004(
            s,
            microsyntax::Context::Content,
        ));
        let _ = black_box(microsyntax::parse_duration(s));
        let _ = black_box(microsyntax::parse_simple_color(s));
        let _ = black_box(microsyntax::parse_legacy_color(s));
        black_box(microsyntax::is_valid_month_string(s));
        black_box(microsyntax::is_valid_date_string(s));
        black_box(microsyntax::is_valid_time_string(s));
        black_box(microsyntax::is_valid_local_date_time_string(s));
        black_box(microsyntax::is_valid_normalized_local_date_time_string(s));
        black_box(microsyntax::is_valid_global_date_time_string(s));
        black_box(microsyntax::is_valid_normalized_global_date_time_string(s));
        black_box(microsyntax::is_valid_week_string(s));
        black_box(microsyntax::is_valid_duration_string(s));
        black_box(microsyntax::is_valid_datetime(s));
        black_box(microsyntax::is_valid_date_string_with_optional_time(s));
    }
    let stats = region.change();
    assert_eq!(
        (stats.allocations, stats.reallocations),
        (0, 0),
        "the parsers allocated: {stats:?}"
    );

    // The counter works: a String does allocate.
    let region = Region::new(GLOBAL);
    black_box(String::from("allocates"));
    assert!(region.change().allocations > 0);
}
