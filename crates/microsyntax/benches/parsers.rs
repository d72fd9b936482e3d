//! Nanoseconds per call of each parser, on a small set of typical inputs
//! (valid and invalid), plus `pathological_*` groups whose input grows to
//! show that time stays linear.
//!
//! Keep runs short:
//! `cargo bench -p pagetext-microsyntax --bench parsers -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use microsyntax::Context;

/// Runs `parse` over every input of `inputs` per iteration. The group's
/// throughput is `inputs.len()` elements, so criterion's "elem/s" is calls
/// per second (its inverse is the time per call).
fn bench<T>(c: &mut Criterion, name: &str, inputs: &[&str], parse: impl Fn(&str) -> T) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("calls", |b| {
        b.iter(|| {
            for &s in inputs {
                black_box(parse(black_box(s)));
            }
        });
    });
    group.finish();
}

fn numbers(c: &mut Criterion) {
    let ints = ["42", "  -1234567", "+7", "x1", "9223372036854775807"];
    bench(c, "parse_integer", &ints, microsyntax::parse_integer);
    bench(
        c,
        "parse_integer_seed",
        &ints,
        microsyntax::parse_integer_seed,
    );
    bench(
        c,
        "parse_non_negative_integer",
        &ints,
        microsyntax::parse_non_negative_integer,
    );
    let floats = [
        "1.5",
        "-0.000123e-5",
        "3.14159265358979",
        ".5",
        "1e400",
        "x",
    ];
    bench(c, "parse_float", &floats, microsyntax::parse_float);
    bench(
        c,
        "parse_float_seed",
        &floats,
        microsyntax::parse_float_seed,
    );
    bench(
        c,
        "parse_float_seed004",
        &floats,
        microsyntax::parse_float_seed004,
    );
    bench(c, "is_valid_float", &floats, microsyntax::is_valid_float);
    let ratios = ["3/4", "75%", "about 0.3", "1.2.3"];
    bench(c, "parse_ratio", &ratios, microsyntax::parse_ratio);
    let dims = ["100", "50%", "12.5px", "-1"];
    bench(c, "parse_dimension", &dims, microsyntax::parse_dimension);
    let lists = ["1,2,3,4", "10 20;30", "1,2,x,4"];
    bench(c, "parse_list_of_integers", &lists, |s| {
        microsyntax::integer_list(s).sum::<i64>()
    });
    bench(
        c,
        "parse_list_of_dimensions",
        &["1*, 20%, 100"],
        microsyntax::parse_list_of_dimensions,
    );
}

fn dates(c: &mut Criterion) {
    bench(
        c,
        "parse_month",
        &["2005-02", "0033-03", "325-03"],
        microsyntax::parse_month,
    );
    bench(
        c,
        "parse_date",
        &["2016-02-29", "2015-02-29", "0033-03-03"],
        microsyntax::parse_date,
    );
    bench(
        c,
        "parse_yearless_date",
        &["--02-29", "03-03"],
        microsyntax::parse_yearless_date,
    );
    bench(
        c,
        "parse_time",
        &["19:45", "19:45:45.456", "24:00"],
        microsyntax::parse_time,
    );
    bench(
        c,
        "parse_local_date_time",
        &["2004-12-31T23:59:59.999"],
        microsyntax::parse_local_date_time,
    );
    bench(
        c,
        "parse_time_zone_offset",
        &["Z", "+05:30", "-0800"],
        microsyntax::parse_time_zone_offset,
    );
    let globals = [
        "0037-12-13 00:00Z",
        "1979-10-14T12:00:00.001-04:00",
        "8592-01-01T02:09+02:09",
    ];
    bench(
        c,
        "parse_global_date_time",
        &globals,
        microsyntax::parse_global_date_time,
    );
    bench(
        c,
        "parse_week",
        &["2004-W53", "2005-W53"],
        microsyntax::parse_week,
    );
    bench(
        c,
        "parse_date_or_time",
        &["2011-11-18", "14:54", "2011-11-18T14:54Z"],
        microsyntax::parse_date_or_time,
    );
    let seed = [
        "0037-12-13 00:00 Z",
        "1979-10-14T12:00:00.001-04:00",
        "8592-01-01 T 02:09 +02:09",
    ];
    bench(c, "parse_datetime", &seed, microsyntax::parse_datetime);
    bench(
        c,
        "parse_date_or_time_string",
        &[" 2008-10-11 T 14:30 +01:00 ", "12:00"],
        |s| microsyntax::parse_date_or_time_string(s, Context::Attribute),
    );
    bench(
        c,
        "parse_duration",
        &["PT4H18M3S", "4h 18m 3s", "P1M"],
        microsyntax::parse_duration,
    );
}

fn tokens_and_colors(c: &mut Criterion) {
    bench(
        c,
        "split_on_spaces",
        &[" nofollow  noopener noreferrer "],
        |s| microsyntax::split_on_spaces(s).len(),
    );
    bench(c, "split_on_commas", &[" a ,b, ,d d "], |s| {
        microsyntax::split_on_commas(s).len()
    });
    bench(c, "remove_token", &["a b c b d"], |s| {
        microsyntax::remove_token(s, "b")
    });
    bench(
        c,
        "parse_simple_color",
        &["#ff8000", "#FFF"],
        microsyntax::parse_simple_color,
    );
    bench(
        c,
        "parse_legacy_color",
        &["red", "#f80", "chucknorris"],
        microsyntax::parse_legacy_color,
    );
    bench(c, "compatibility_caseless_eq", &["Straße"], |s| {
        microsyntax::compatibility_caseless_eq(s, "STRASSE")
    });
}

fn pathological(c: &mut Criterion) {
    let mut group = c.benchmark_group("pathological_float_digits");
    for n in [1_000, 10_000, 100_000] {
        let s = format!("0.{}1", "3".repeat(n));
        group.throughput(Throughput::Bytes(s.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| microsyntax::parse_float(black_box(s)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("pathological_integer_list");
    for n in [1_000, 10_000, 100_000] {
        let s = "-1,".repeat(n);
        group.throughput(Throughput::Bytes(s.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| microsyntax::integer_list(black_box(s)).count())
        });
    }
    group.finish();
    let mut group = c.benchmark_group("pathological_combining_marks");
    for n in [1_000, 10_000, 100_000] {
        let s = "\u{301}\u{323}".repeat(n);
        group.throughput(Throughput::Bytes(s.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| microsyntax::compatibility_caseless_key(black_box(s)))
        });
    }
    group.finish();
}

criterion_group!(benches, numbers, dates, tokens_and_colors, pathological);
criterion_main!(benches);
