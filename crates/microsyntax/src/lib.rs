//! The HTML common microsyntaxes: the parsing rules and validity checks for
//! the numbers, dates and times, tokens, keywords, references and colors
//! found in attribute values.
//!
//! A leaf crate: no I/O and no required dependencies. It knows nothing
//! about documents, elements or encodings; callers hand it attribute values
//! as `&str`. Its specification is seed 002 (HTML5 draft, Oct 2008, §2.3 and
//! §2.4), seed 004 (the Oct 2007 draft of the same section) and, where the
//! seeds leave placeholders, the later standard (HTML 5.2 "Common
//! microsyntaxes", in `shared/reference/`), corrected by the WHATWG living
//! standard where it changed a rule (see "Living standard" below).
//!
//! # How it fits together
//!
//! Every algorithm is a function named after the spec's term:
//! `parse_*` runs "the rules for parsing X" and `is_valid_*` answers "is this
//! a valid X" (the conformance side; the parsing rules accept more). Parsers
//! return plain value types ([`Date`], [`Time`], [`GlobalDateTime`],
//! [`Dimension`], [`Ratio`], …) or a typed [`Error`] saying what went wrong
//! and at which byte. The value types' `Display` implementations are the
//! spec's "valid … string" serializers, so a parsed value written back is a
//! valid string that parses to the same value. [`Cursor`] is the spec's
//! `input`/`position` pair with its idioms, for callers writing parsers of
//! their own. [`algorithms`] is a registry of everything by name, for
//! command-line tools.
//!
//! ```
//! use microsyntax::{parse_dimension, parse_global_date_time, parse_integer, split_on_spaces, DimensionType};
//!
//! assert_eq!(parse_integer("  42px")?, 42);
//! assert_eq!(parse_dimension("50%")?.kind, DimensionType::Percentage);
//! let when = parse_global_date_time("1979-10-14T12:00:00.001-04:00")?;
//! assert_eq!(when.to_normalized_string(), "1979-10-14T16:00:00.001Z");
//! assert_eq!(split_on_spaces(" nofollow  noopener "), ["nofollow", "noopener"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Seed and later standard
//!
//! Browsers and the peer test suites follow the later standard, so where it
//! changed an algorithm the seeds spell out, the later behaviour is the
//! default function and the seeds' behaviour is a named variant next to it:
//! `foo` is the default, `foo_seed` follows seed 002 and `foo_seed004`
//! follows seed 004. Algorithms that only the seeds define (ratios, lists of
//! integers, the seed's "datetime" and "date or time string") follow seed
//! 002 by default.
//!
//! # Living standard
//!
//! Where the WHATWG HTML living standard differs from HTML 5.2 in an
//! algorithm the seeds leave as a placeholder, the default follows the
//! living standard. Without network access, the text followed is the
//! living standard as of 2024, from memory of its wording; each function
//! says which steps it follows. Three rules differ:
//!
//! - Years: months, dates, floating and global dates and times, week-years
//!   and dates with optional time take "four or more ASCII digits,
//!   representing year, where year > 0", in the validity checks as in the
//!   parsers: `20133-12` is a valid month string and `12014-09-29` a valid
//!   date string. The serializers zero-pad years below 1000 to four digits
//!   and write larger ones in full. [`MAX_YEAR`] stays as this crate's
//!   limit.
//! - Dimension values ([`parse_dimension`], [`parse_non_zero_dimension`]):
//!   a leading `+` is an error (HTML 5.2 skipped it), and a full stop after
//!   the digits with no digit after it still looks for `%` (`200.%` is 200,
//!   a percentage; HTML 5.2 returned a length). The seeds define no
//!   dimension rules, so there is no seed variant and HTML 5.2's text is not
//!   kept.
//! - Floating-point numbers: [`is_valid_float`] rejects a string whose
//!   value overflows to infinity (`2e308`), since the parsing rules return
//!   an error for it ([`parse_float`] already did, as both texts say).
//!
//! # Spec mapping
//!
//! | Algorithm | Functions | Source | Seed variants |
//! |---|---|---|---|
//! | space characters, White_Space, Zs | [`is_space_character`], [`is_white_space`], [`is_zs`] | seed 002 §2.4.1, seed 004 | [`is_space_character_seed004`] (VT) |
//! | collect a sequence, skip whitespace, skip White_Space | [`Cursor`] | seed 002 §2.4.1 | [`Cursor::skip_whitespace_seed004`], [`Cursor::skip_zs_characters`] |
//! | strip line breaks, code-point length | [`strip_line_breaks`], [`code_point_length`] | seed 002 §2.4.1 | |
//! | strip / collapse white space, strictly split | [`strip_leading_and_trailing_whitespace`], [`strip_and_collapse_whitespace`], [`strictly_split`] | reference | |
//! | case-sensitive, ASCII case-insensitive, upper/lower-casing | [`eq_case_sensitive`], [`eq_ascii_case_insensitive`], [`to_ascii_uppercase`], [`to_ascii_lowercase`] | seed 002 §2.3 | |
//! | compatibility caseless match | [`compatibility_caseless_eq`], [`compatibility_caseless_key`] | seed 002 §2.3 (Unicode D146) | |
//! | boolean attributes | [`boolean_attribute_state`], [`is_valid_boolean_attribute_value`] | seed 002 §2.4.2 | [`is_valid_boolean_attribute_value_seed004`] |
//! | enumerated attributes | [`EnumeratedAttribute`], [`Keyword`] | seed 002 §2.4.7 | same in seed 004 |
//! | non-negative integers | [`parse_non_negative_integer`], [`is_valid_non_negative_integer`] | reference (seed 002 §2.4.3.1) | [`parse_non_negative_integer_seed`], [`parse_non_negative_integer_seed004`] |
//! | integers | [`parse_integer`], [`is_valid_integer`] | reference (seed 002 §2.4.3.2) | [`parse_integer_seed`], [`parse_integer_seed004`] |
//! | positive non-zero integers | [`parse_positive_non_zero_integer`], [`is_valid_positive_non_zero_integer`] | reference (seed 002 §2.4.3.5 placeholder) | |
//! | floating-point numbers | [`parse_float`], [`is_valid_float`], [`best_representation`] | reference; living standard for validity (seed 002 §2.4.3.3) | [`parse_float_seed`], [`parse_float_seed004`], [`is_valid_float_seed`], [`is_valid_float_seed004`] |
//! | ratios | [`parse_ratio`], [`denominator_punctuation_value`] | seed 002 §2.4.3.4 (= seed 004) | |
//! | dimension values, non-zero | [`parse_dimension`], [`parse_non_zero_dimension`], [`is_valid_dimension`] | living standard (seed 002 §2.4.3.5 placeholder) | |
//! | lists of dimensions | [`parse_list_of_dimensions`], [`is_valid_list_of_dimensions`] | reference | |
//! | lists of integers | [`parse_list_of_integers`], [`integer_list`], [`is_valid_list_of_integers`] | seed 002 §2.4.3.6 | [`parse_list_of_integers_seed004`] |
//! | lists of floating-point numbers | [`parse_list_of_floats`], [`float_list`], [`is_valid_list_of_floats`] | reference | |
//! | days in a month, leap years, weeks in a year | [`days_in_month`], [`is_leap_year`], [`weeks_in_year`] | seed 002 §2.4.4, reference | |
//! | datetime | [`parse_datetime`], [`is_valid_datetime`] | seed 002 §2.4.4.1 | [`parse_datetime_seed004`], [`is_valid_datetime_seed004`] |
//! | date or time string (in content, in attributes) | [`parse_date_or_time_string`], [`is_valid_date_or_time_string`] | seed 002 §2.4.4.2 | [`parse_date_or_time_string_seed004`] (Zs, VT) |
//! | months | [`parse_month`], [`is_valid_month_string`] | reference, living standard years (seed 002 §2.4.4.6 placeholder) | |
//! | dates | [`parse_date`], [`is_valid_date_string`] | reference, living standard years (seed 002 §2.4.4.5 placeholder) | |
//! | yearless dates | [`parse_yearless_date`], [`is_valid_yearless_date_string`] | reference | |
//! | times | [`parse_time`], [`is_valid_time_string`] | reference (seed 002 §2.4.4.8 placeholder) | |
//! | local (floating) dates and times | [`parse_local_date_time`], [`is_valid_local_date_time_string`], [`is_valid_normalized_local_date_time_string`] | reference, living standard years (seed 002 §2.4.4.4 placeholder) | |
//! | time-zone offsets | [`parse_time_zone_offset`], [`is_valid_time_zone_offset_string`] | reference | |
//! | global dates and times | [`parse_global_date_time`], [`is_valid_global_date_time_string`], [`GlobalDateTime::to_normalized_string`], [`is_valid_normalized_global_date_time_string`] | reference, living standard years (seed 002 §2.4.4.3 placeholder) | |
//! | weeks | [`parse_week`], [`is_valid_week_string`] | reference, living standard years (seed 002 §2.4.4.7 placeholder) | |
//! | durations (both syntaxes) | [`parse_duration`], [`is_valid_duration_string`], [`Duration::to_component_string`] | reference (seed 002 §2.4.4.9 placeholder) | |
//! | date or time (`time`, `ins`/`del` `datetime`) | [`parse_date_or_time`], [`is_valid_date_string_with_optional_time`] | reference, living standard years | |
//! | space-separated tokens | [`split_on_spaces`], [`space_separated_tokens`], [`remove_token`], [`unique_tokens`], [`is_valid_unique_tokens`] | seed 002 §2.4.5 | [`split_on_spaces_seed004`], [`remove_token_seed004`] (VT) |
//! | comma-separated tokens | [`split_on_commas`] | reference (trims white space) | [`split_on_commas_seed`] (seed 002 §2.4.6, no trimming) |
//! | hash-name references | [`parse_hash_name_reference`], [`is_valid_hash_name_reference`] | seed 002 §2.4.8 | |
//! | simple colors, legacy color values | [`parse_simple_color`], [`is_valid_simple_color`], [`parse_legacy_color`], [`named_color`] | reference | |
//! | parse a URL (feature `url`) | `url::parse_url`, `url::UrlParts` | URL Standard (seed 002 §2.5.2) | `url::seed::parse_url`, `url::seed::SeedUrl` |
//! | valid URL (feature `url`) | `url::Parsed::valid` | URL Standard (seed 002 §2.5.1) | `url::seed::is_valid_url` |
//! | resolve a URL (feature `url`) | `url::resolve_url` | URL Standard (seed 002 §2.5.3 steps 1–14) | `url::seed::resolve_url` |
//! | document base URL (feature `url`) | `url::document_base_url` | seed 002 §2.5.3 steps 1–4 | `url::seed::document_base_url` |
//! | the query in the document's encoding (feature `url`) | `url::QueryEncoding`, `url::encode_reference_query` | URL Standard (seed 002 §2.5.3 step 9) | `url::seed::resolve_url`, `url::seed::encode_url` |
//!
//! # Typos in the drafts, fixed
//!
//! - Seed 002 §2.4.4.1 step 10 and seed 004: "if day is not a number in the
//!   range 1 ≤ *month* ≤ maxday" tests the day.
//! - Seed 002 §2.4.4.1 prose: "the second value (s) being in the range
//!   0 ≤ *h* < 60" means s.
//! - Seed 002 §2.4.4.1 step 25 lacks "otherwise, fail": a datetime without
//!   `Z` or an offset after its optional spaces fails (the prose requires
//!   one, and step 27 needs it).
//! - Seed 002 §2.4.4.2 step 18 collects the seconds without first
//!   advancing past the colon (so no seconds could ever be read).
//! - Seed 002 §2.4.4.2 step 18.4: "0 ≤ *minute* < 60" tests the second.
//! - Seed 002 §2.4.4.2 step 20.4 negates the offset's hours for `-` but not
//!   its minutes (§2.4.4.1 step 25.9 does both): both are negated.
//! - Seed 002 §2.4.4.2 steps 8.7, 8.13 and 10 say "the sequence collected
//!   two steps ago", which points at a step that collects nothing: the
//!   digits just collected are meant.
//! - Seed 002 §2.4.3.3 "valid floating point number" ends with "a series of
//!   characters" in the exponent: one or more digits, as everywhere else.
//! - Seed 002 §2.4.3.1–2: "one of more characters" means one or more.
//!
//! # Interpretations
//!
//! - Seed 002 §2.4.3.4 step 5 of "find a number" says parsing the collected
//!   digits and full stops "cannot fail"; with seed 002's own float rules
//!   `.5` would fail, so the later rules (which read `.5` and `5.`, as seed
//!   004's did) are used.
//! - Seed 004's text lost the nested sub-steps of its float and
//!   list-of-integers rules (and the range checks written with formulas);
//!   they are restored from the surviving steps and seed 002, as each
//!   function documents.
//! - The seed variants of the float rules run the steps in `f64`
//!   arithmetic as written; the default rounds once to the nearest double.
//! - Seed 002's text lost two lists in §2.5 "URLs", restored from the
//!   HTML5 draft of that time (feature `url`, `url::seed`): the §2.5.1
//!   conditions for a valid URL (a valid URI reference; or a valid IRI
//!   reference with no query, or whose query has no unescaped non-ASCII
//!   characters, or in a UTF-8 or UTF-16 document) and the §2.5.2 step 2
//!   exceptions to RFC 3986's ABNF (more characters in `<unreserved>`, a
//!   lone `%` as `<pct-encoded>` outside `<reg-name>`, `#` in
//!   `<fragment>`).
//! - Seed 002 §2.5.3 step 7 names RFC 3490's IDNA ToASCII; the seed variant
//!   uses UTS #46 (its successor, through the `idna` crate) with the STD3
//!   rules. Steps 8 and 9 leave `\` as written where step 13 will turn it
//!   into `/` (server-based schemes), since encoding it first would leave
//!   step 13 nothing to do; `url::seed` documents this and step 11's checks.
//! - For the algorithms the reference defines only as parsing rules
//!   (dimension values, lists of dimensions, legacy colors), the
//!   `is_valid_*` checks are this crate's definitions, stated in their docs.
//!
//! # Limits (deviations from unbounded spec numbers)
//!
//! Integers are `i64`/`u64` and larger values are [`ErrorKind::Overflow`]
//! (lists of integers saturate instead, having no error); years go up to
//! [`MAX_YEAR`]; fractions of seconds keep nine digits; durations go up to
//! `u64::MAX` seconds; a seed-variant float that overflows `f64` is an
//! error.
//!
//! # Allocation and panics
//!
//! The number, date, time, duration, ratio, dimension and color parsers do
//! not allocate (a test with a counting allocator checks this); functions
//! returning `Vec` or `String` allocate only for their result. No function
//! panics on any input: every algorithm is total, runs in time linear in its
//! input (`compatibility_caseless_key` in O(n log n)), and has no recursion.
//!
//! # Features
//!
//! - `serde`: `Serialize` for the value types, [`Error`] and the registry's
//!   [`algorithms::Outcome`], as plain JSON (numbers as numbers, a dimension
//!   as `{"value", "type"}`, dates and times as objects of named components,
//!   lists as arrays).
//! - `url`: the `url` module, URLs (seed 002 §2.5): the URL Standard through
//!   the `url` crate by default, and the seed's RFC 3986 algorithm (with
//!   `idna` and `percent-encoding`) as `url::seed`; the registry gains the
//!   `url` algorithm and [`algorithms::Options::base`].

pub mod algorithms;
mod attributes;
mod case;
mod colors;
mod dates;
mod dimensions;
mod error;
mod float;
mod idioms;
mod integers;
mod lists;
mod ratio;
mod references;
#[cfg(feature = "serde")]
mod serde_impls;
mod srcset;
mod tokens;
mod unicode_tables;
#[cfg(feature = "url")]
pub mod url;

pub use attributes::{
    EnumeratedAttribute, Keyword, boolean_attribute_state, is_valid_boolean_attribute_value,
    is_valid_boolean_attribute_value_seed004,
};
pub use case::{
    UNICODE_VERSION, compatibility_caseless_eq, compatibility_caseless_key,
    eq_ascii_case_insensitive, eq_case_sensitive, to_ascii_lowercase, to_ascii_uppercase,
};
pub use colors::{
    SimpleColor, is_valid_legacy_color, is_valid_lowercase_simple_color, is_valid_simple_color,
    named_color, parse_legacy_color, parse_simple_color,
};
pub use dates::*;
pub use dimensions::{
    Dimension, DimensionType, DimensionUnit, ListDimension, is_valid_dimension,
    is_valid_list_of_dimensions, is_valid_non_zero_dimension, parse_dimension,
    parse_list_of_dimensions, parse_non_zero_dimension,
};
pub use error::{Component, Error, ErrorKind};
pub use float::{
    best_representation, is_valid_float, is_valid_float_seed, is_valid_float_seed004, parse_float,
    parse_float_seed, parse_float_seed004,
};
pub use idioms::{
    Cursor, code_point_length, is_space_character, is_space_character_seed004, is_white_space,
    is_zs, strictly_split, strip_and_collapse_whitespace, strip_leading_and_trailing_whitespace,
    strip_line_breaks,
};
pub use integers::{
    is_valid_integer, is_valid_non_negative_integer, is_valid_positive_non_zero_integer,
    parse_integer, parse_integer_seed, parse_integer_seed004, parse_non_negative_integer,
    parse_non_negative_integer_seed, parse_non_negative_integer_seed004,
    parse_positive_non_zero_integer,
};
pub use lists::{
    FloatList, IntegerList, float_list, integer_list, is_valid_list_of_floats,
    is_valid_list_of_integers, parse_list_of_floats, parse_list_of_integers,
    parse_list_of_integers_seed004,
};
pub use ratio::{DenominatorPunctuation, Ratio, denominator_punctuation_value, parse_ratio};
pub use references::{is_valid_hash_name_reference, parse_hash_name_reference};
pub use srcset::{SrcsetUrls, srcset_urls};
pub use tokens::{
    SpaceSeparatedTokens, is_valid_unique_tokens, remove_token, remove_token_seed004,
    space_separated_tokens, split_on_commas, split_on_commas_seed, split_on_spaces,
    split_on_spaces_seed004, unique_tokens,
};
