//! A registry of the algorithms by name, for tools that let a user pick one
//! at run time (`pagetext micro ALGORITHM VALUE`).
//!
//! Each [`Algorithm`] answers two questions about an input: is it a valid
//! string of that kind (the conformance side), and what do the parsing
//! rules make of it. [`run`] returns both as an [`Outcome`]. With the
//! `serde` feature, an `Outcome` serializes as plain JSON
//! (`{"valid": …, "value": …, "error": …}`), numbers as numbers, dates and
//! times as objects of their named components. With the `url` feature the
//! registry has `url`, which takes a base URL ([`Options::base`]).
//!
//! Some algorithms need more than the input, given in [`Options`] and
//! listed in [`Algorithm::options`] and [`Algorithm::required`]:
//! `enumerated` (the keywords, and optionally the invalid and missing value
//! defaults), `boolean` (the attribute's canonical name), `remove-token`
//! (the token) and `compatibility-caseless` (the other string). [`run`]
//! refuses an option an algorithm does not take, and a missing required
//! one, with a [`RunError`].
//!
//! # What is not in the registry
//!
//! Every public parsing algorithm and validity check of the crate is
//! reachable by name, through the default or a seed variant ([`Spec`]),
//! except these, which are not "what do the parsing rules make of this
//! value" questions or are reached through another entry:
//!
//! - Lazy and borrowed forms of entries: [`crate::integer_list`],
//!   [`crate::float_list`], [`crate::space_separated_tokens`] (the same
//!   results as `integers`, `floats`, `tokens`).
//! - Serializers and look-ups used by an entry: [`crate::best_representation`]
//!   (a float's shortest valid string), [`crate::named_color`] (inside
//!   `legacy-color`), [`crate::denominator_punctuation_value`] (inside
//!   `ratio`), the value types' `Display`.
//! - Second validity checks of an entry's kind:
//!   [`crate::is_valid_lowercase_simple_color`],
//!   [`crate::is_valid_normalized_local_date_time_string`],
//!   [`crate::is_valid_normalized_global_date_time_string`].
//! - Calendar arithmetic, not parsing: [`crate::days_in_month`],
//!   [`crate::is_leap_year`], [`crate::weeks_in_year`].
//! - The spec's idioms and string operations, which define no syntax of
//!   their own: [`crate::Cursor`], [`crate::strip_line_breaks`],
//!   [`crate::strip_leading_and_trailing_whitespace`],
//!   [`crate::strip_and_collapse_whitespace`], [`crate::strictly_split`],
//!   [`crate::code_point_length`], the character classes
//!   ([`crate::is_space_character`], [`crate::is_white_space`],
//!   [`crate::is_zs`]), and the exact and ASCII comparisons and case
//!   mappings ([`crate::eq_case_sensitive`],
//!   [`crate::eq_ascii_case_insensitive`], [`crate::to_ascii_lowercase`],
//!   [`crate::to_ascii_uppercase`]); only the compatibility caseless match,
//!   which needs Unicode data, has an entry.
//! - With the `url` feature, `url::document_base_url` (it needs a document)
//!   and `url::encode_reference_query` (the query step inside `url`).
//!
//! ```
//! use microsyntax::algorithms::{run, Options, Spec, Value};
//! let out = run("integer", Options::default(), " +42")?;
//! assert!(!out.valid); // leading space and "+" are not valid…
//! assert_eq!(out.value, Some(Value::Integer(42))); // …but the rules read 42
//! let seed = run("integer", Options { spec: Spec::Seed002, ..Options::default() }, "+42")?;
//! assert_eq!(seed.value, None); // seed 002 has no "+"
//! # Ok::<(), microsyntax::algorithms::RunError>(())
//! ```

use core::fmt;

use crate::{
    Context, Date, DateOrTime, DateOrTimeResults, Dimension, Duration, EnumeratedAttribute,
    GlobalDateTime, Keyword, ListDimension, LocalDateTime, Month, Ratio, SimpleColor, Time,
    TimeZoneOffset, Week, YearlessDate,
};

/// Which draft of an algorithm to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Spec {
    /// The default: the later standard where it defines the algorithm, and
    /// seed 002 for the algorithms only the seeds define (ratios, lists of
    /// integers, the seed's datetime and date or time strings).
    #[default]
    Standard,
    /// Seed 002 (HTML5 draft, Oct 2008), where it differs from the default.
    Seed002,
    /// Seed 004 (the earlier draft, Oct 2007), where it differs.
    Seed004,
}

impl Spec {
    /// A short name: `standard`, `seed002`, `seed004`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Seed002 => "seed002",
            Self::Seed004 => "seed004",
        }
    }
}

/// How to run an algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options<'a> {
    /// Which draft.
    pub spec: Spec,
    /// For `date-or-time` only: in an attribute (default) or in content.
    pub context: Context,
    /// For `url` only: resolve the input against this absolute URL.
    pub base: Option<&'a str>,
    /// For `enumerated` (required): the attribute's keywords, in order. The
    /// first ASCII case-insensitive match wins; a keyword may be empty; all
    /// are conforming.
    pub keywords: Option<&'a [&'a str]>,
    /// For `enumerated`: the *invalid value default*, the state of a value
    /// that matches no keyword.
    pub invalid_default: Option<&'a str>,
    /// For `enumerated`: the *missing value default*. The registry always
    /// has a value, so it shows only where the library falls back to it: a
    /// value that matches no keyword when there is no invalid value default.
    pub missing_default: Option<&'a str>,
    /// For `boolean` (required): the attribute's canonical name.
    pub attribute: Option<&'a str>,
    /// For `remove-token` (required): the token to remove.
    pub token: Option<&'a str>,
    /// For `compatibility-caseless` (required): the string to compare the
    /// input with.
    pub other: Option<&'a str>,
}

impl Options<'_> {
    /// Whether `extra` is given.
    pub const fn has(&self, extra: Extra) -> bool {
        match extra {
            Extra::Keywords => self.keywords.is_some(),
            Extra::InvalidDefault => self.invalid_default.is_some(),
            Extra::MissingDefault => self.missing_default.is_some(),
            Extra::Attribute => self.attribute.is_some(),
            Extra::Token => self.token.is_some(),
            Extra::Other => self.other.is_some(),
        }
    }
}

/// An option some algorithms take besides the input (the base URL has its
/// own [`Algorithm::takes_base`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Extra {
    /// [`Options::keywords`].
    Keywords,
    /// [`Options::invalid_default`].
    InvalidDefault,
    /// [`Options::missing_default`].
    MissingDefault,
    /// [`Options::attribute`].
    Attribute,
    /// [`Options::token`].
    Token,
    /// [`Options::other`].
    Other,
}

impl Extra {
    /// Every extra option.
    pub const ALL: [Self; 6] = [
        Self::Keywords,
        Self::InvalidDefault,
        Self::MissingDefault,
        Self::Attribute,
        Self::Token,
        Self::Other,
    ];

    /// Its name, as a command-line option would spell it: `keywords`,
    /// `invalid-default`, `missing-default`, `attribute`, `token`, `other`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Keywords => "keywords",
            Self::InvalidDefault => "invalid-default",
            Self::MissingDefault => "missing-default",
            Self::Attribute => "attribute",
            Self::Token => "token",
            Self::Other => "other",
        }
    }
}

/// What an algorithm makes of an input.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Whether the input is a valid string of this kind (conformance).
    pub valid: bool,
    /// What the parsing rules return; `None` when they return an error or
    /// nothing.
    pub value: Option<Value>,
    /// The error's message when the parsing rules return an error (not
    /// when they return nothing without one, as the ratio steps can).
    pub error: Option<String>,
}

/// A value some parsing rules returned.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// A signed integer.
    Integer(i64),
    /// A non-negative integer.
    NonNegativeInteger(u64),
    /// A floating-point number.
    Float(f64),
    /// One or two numbers of a ratio.
    Ratio(Ratio),
    /// A list of integers.
    Integers(Vec<i64>),
    /// A dimension value.
    Dimension(Dimension),
    /// A list of dimensions.
    Dimensions(Vec<ListDimension>),
    /// A date.
    Date(Date),
    /// A month.
    Month(Month),
    /// A week.
    Week(Week),
    /// A yearless date.
    YearlessDate(YearlessDate),
    /// A time.
    Time(Time),
    /// A local (floating) date and time.
    LocalDateTime(LocalDateTime),
    /// A time-zone offset.
    TimeZoneOffset(TimeZoneOffset),
    /// A global date and time.
    GlobalDateTime(GlobalDateTime),
    /// A date, a time, or a global date and time.
    DateOrTime(DateOrTime),
    /// The results of seed 002 §2.4.4.2 (its `valid` is the outcome's).
    DateOrTimeResults(DateOrTimeResults),
    /// A duration.
    Duration(Duration),
    /// A list of tokens.
    Tokens(Vec<String>),
    /// A list of floating-point numbers.
    Floats(Vec<f64>),
    /// A boolean attribute's state.
    Bool(bool),
    /// A string: an enumerated attribute's state (the keyword as listed, or
    /// a default), a hash-name reference's name, what is left after
    /// removing a token, a compatibility caseless key.
    Text(String),
    /// A color.
    Color(SimpleColor),
    /// A URL's components (feature `url`).
    #[cfg(feature = "url")]
    Url(crate::url::UrlParts),
}

/// Why [`run`] could not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError {
    /// No algorithm has this name.
    UnknownAlgorithm,
    /// The algorithm has no variant for this draft.
    UnsupportedSpec(&'static str, Spec),
    /// The algorithm has no "in content" variant.
    UnsupportedContext(&'static str),
    /// The algorithm resolves nothing against a base URL.
    UnsupportedBase(&'static str),
    /// The algorithm takes no such option.
    UnsupportedOption(&'static str, Extra),
    /// The algorithm needs this option.
    MissingOption(&'static str, Extra),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownAlgorithm => f.write_str("unknown algorithm"),
            Self::UnsupportedSpec(name, spec) => write!(f, "{name} has no {} variant", spec.name()),
            Self::UnsupportedContext(name) => write!(f, "{name} has no in-content variant"),
            Self::UnsupportedBase(name) => write!(f, "{name} takes no base URL"),
            Self::UnsupportedOption(name, extra) => {
                write!(f, "{name} takes no {} option", extra.name())
            }
            Self::MissingOption(name, extra) => {
                write!(f, "{name} needs the {} option", extra.name())
            }
        }
    }
}

impl std::error::Error for RunError {}

/// One algorithm of the registry.
#[derive(Clone, Copy)]
pub struct Algorithm {
    /// The name used on the command line, e.g. `non-negative-integer`.
    pub name: &'static str,
    /// The spec's term for what it parses.
    pub title: &'static str,
    /// Where the default variant comes from.
    pub source: &'static str,
    /// The drafts it can follow, the default first. For the algorithms only
    /// the seeds define, [`Spec::Standard`] and [`Spec::Seed002`] are the
    /// same rules.
    pub specs: &'static [Spec],
    /// The variant a "use the seed's rules" switch should pick, if any.
    pub seed_variant: Option<Spec>,
    /// Whether it has an "in content" variant ([`Context::Content`]).
    pub has_content_variant: bool,
    /// Whether it takes a base URL ([`Options::base`]).
    pub takes_base: bool,
    /// The other options it takes.
    pub options: &'static [Extra],
    /// The options it cannot run without (a part of `options`).
    pub required: &'static [Extra],
    run: fn(&Options<'_>, &str) -> Outcome,
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Algorithm")
            .field("name", &self.name)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl Algorithm {
    /// Runs the algorithm on `input`.
    pub fn run(&self, options: Options<'_>, input: &str) -> Result<Outcome, RunError> {
        let spec = options.spec;
        if !self.specs.contains(&spec) {
            return Err(RunError::UnsupportedSpec(self.name, options.spec));
        }
        if options.context == Context::Content && !self.has_content_variant {
            return Err(RunError::UnsupportedContext(self.name));
        }
        if options.base.is_some() && !self.takes_base {
            return Err(RunError::UnsupportedBase(self.name));
        }
        for extra in Extra::ALL {
            if options.has(extra) && !self.options.contains(&extra) {
                return Err(RunError::UnsupportedOption(self.name, extra));
            }
        }
        for &extra in self.required {
            if !options.has(extra) {
                return Err(RunError::MissingOption(self.name, extra));
            }
        }
        Ok((self.run)(&options, input))
    }
}

/// The algorithm called `name`, if any.
///
/// ```
/// let a = microsyntax::algorithms::find("week").unwrap();
/// assert_eq!(a.source, "reference, Weeks (seed 002 §2.4.4.7 placeholder)");
/// ```
pub fn find(name: &str) -> Option<&'static Algorithm> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// Runs the algorithm called `name` on `input`.
pub fn run(name: &str, options: Options<'_>, input: &str) -> Result<Outcome, RunError> {
    find(name)
        .ok_or(RunError::UnknownAlgorithm)?
        .run(options, input)
}

/// An outcome from rules that return a value or an error.
fn outcome<T, E: fmt::Display>(valid: bool, value: Result<T, E>, wrap: fn(T) -> Value) -> Outcome {
    match value {
        Ok(v) => Outcome {
            valid,
            value: Some(wrap(v)),
            error: None,
        },
        Err(e) => Outcome {
            valid,
            value: None,
            error: Some(e.to_string()),
        },
    }
}

/// An outcome from rules that return a value or nothing, never an error.
fn found<T>(valid: bool, value: Option<T>, wrap: fn(T) -> Value) -> Outcome {
    Outcome {
        valid,
        value: value.map(wrap),
        error: None,
    }
}

const STANDARD: &[Spec] = &[Spec::Standard];
const SEED_ONLY: &[Spec] = &[Spec::Standard, Spec::Seed002];

/// The registry's entries, with `$extra` after them.
macro_rules! registry {
    ($($extra:expr),*) => { &[
    Algorithm {
        name: "compatibility-caseless",
        title: "compatibility caseless match",
        source: "seed 002 §2.3, Unicode D146 (valid: the input matches --other; the value is the input's caseless key)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[Extra::Other],
        required: &[Extra::Other],
        run: |o, s| {
            let other = o.other.unwrap_or_default();
            Outcome {
                valid: crate::compatibility_caseless_eq(s, other),
                value: Some(Value::Text(crate::compatibility_caseless_key(s))),
                error: None,
            }
        },
    },
    Algorithm {
        name: "boolean",
        title: "boolean attribute: its state and valid values",
        source: "seed 002 §2.4.2 (the state of a present attribute is true)",
        specs: &[Spec::Standard, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: false,
        takes_base: false,
        options: &[Extra::Attribute],
        required: &[Extra::Attribute],
        run: |&Options { spec, attribute, .. }, s| {
            let name = attribute.unwrap_or_default();
            let valid = match spec {
                Spec::Seed004 => crate::is_valid_boolean_attribute_value_seed004(name, s),
                Spec::Standard | Spec::Seed002 => {
                    crate::is_valid_boolean_attribute_value(name, s)
                }
            };
            let state = crate::boolean_attribute_state(Some(s));
            found(valid, Some(state), Value::Bool)
        },
    },
    Algorithm {
        name: "integer",
        title: "valid integer / rules for parsing integers",
        source: "reference, Signed integers (seed 002 §2.4.3.2)",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed002),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let value = match spec {
                Spec::Standard => crate::parse_integer(s),
                Spec::Seed002 => crate::parse_integer_seed(s),
                Spec::Seed004 => crate::parse_integer_seed004(s),
            };
            outcome(crate::is_valid_integer(s), value, Value::Integer)
        },
    },
    Algorithm {
        name: "non-negative-integer",
        title: "valid non-negative integer / rules for parsing non-negative integers",
        source: "reference, Non-negative integers (seed 002 §2.4.3.1)",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed002),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let value = match spec {
                Spec::Standard => crate::parse_non_negative_integer(s),
                Spec::Seed002 => crate::parse_non_negative_integer_seed(s),
                Spec::Seed004 => crate::parse_non_negative_integer_seed004(s),
            };
            outcome(
                crate::is_valid_non_negative_integer(s),
                value,
                Value::NonNegativeInteger,
            )
        },
    },
    Algorithm {
        name: "positive-non-zero-integer",
        title: "valid positive non-zero integer / rules for parsing positive non-zero integers",
        source: "reference, Non-negative integers (seed 002 §2.4.3.5 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_positive_non_zero_integer(s),
                crate::parse_positive_non_zero_integer(s),
                Value::NonNegativeInteger,
            )
        },
    },
    Algorithm {
        name: "float",
        title: "valid floating-point number / rules for parsing floating-point number values",
        source: "reference, Floating-point numbers (seed 002 §2.4.3.3)",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed002),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let (valid, value) = match spec {
                Spec::Standard => (crate::is_valid_float(s), crate::parse_float(s)),
                Spec::Seed002 => (crate::is_valid_float_seed(s), crate::parse_float_seed(s)),
                Spec::Seed004 => (
                    crate::is_valid_float_seed004(s),
                    crate::parse_float_seed004(s),
                ),
            };
            outcome(valid, value, Value::Float)
        },
    },
    Algorithm {
        name: "ratio",
        title: "steps for finding one or two numbers of a ratio in a string",
        source: "seed 002 §2.4.3.4 (no validity rule: valid means the steps return numbers)",
        specs: SEED_ONLY,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            let value = crate::parse_ratio(s);
            found(value.is_some(), value, Value::Ratio)
        },
    },
    Algorithm {
        name: "integers",
        title: "valid list of integers / rules for parsing a list of integers",
        source: "seed 002 §2.4.3.6",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let value = match spec {
                Spec::Seed004 => crate::parse_list_of_integers_seed004(s),
                Spec::Standard | Spec::Seed002 => crate::parse_list_of_integers(s),
            };
            found(
                crate::is_valid_list_of_integers(s),
                Some(value),
                Value::Integers,
            )
        },
    },
    Algorithm {
        name: "floats",
        title: "valid list of floating-point numbers / rules for parsing a list of floating-point numbers",
        source: "reference, Lists of floating-point numbers",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            found(
                crate::is_valid_list_of_floats(s),
                Some(crate::parse_list_of_floats(s)),
                Value::Floats,
            )
        },
    },
    Algorithm {
        name: "dimension",
        title: "rules for parsing dimension values",
        source: "reference, Percentages and lengths (seed 002 §2.4.3.5 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_dimension(s),
                crate::parse_dimension(s),
                Value::Dimension,
            )
        },
    },
    Algorithm {
        name: "nonzero-dimension",
        title: "rules for parsing non-zero dimension values",
        source: "reference, Non-zero percentages and lengths",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_non_zero_dimension(s),
                crate::parse_non_zero_dimension(s),
                Value::Dimension,
            )
        },
    },
    Algorithm {
        name: "dimensions",
        title: "rules for parsing a list of dimensions",
        source: "reference, Lists of dimensions",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            found(
                crate::is_valid_list_of_dimensions(s),
                Some(crate::parse_list_of_dimensions(s)),
                Value::Dimensions,
            )
        },
    },
    Algorithm {
        name: "date",
        title: "valid date string / parse a date string",
        source: "reference, Dates (seed 002 §2.4.4.5 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_date_string(s),
                crate::parse_date(s),
                Value::Date,
            )
        },
    },
    Algorithm {
        name: "month",
        title: "valid month string / parse a month string",
        source: "reference, Months (seed 002 §2.4.4.6 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_month_string(s),
                crate::parse_month(s),
                Value::Month,
            )
        },
    },
    Algorithm {
        name: "week",
        title: "valid week string / parse a week string",
        source: "reference, Weeks (seed 002 §2.4.4.7 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_week_string(s),
                crate::parse_week(s),
                Value::Week,
            )
        },
    },
    Algorithm {
        name: "yearless-date",
        title: "valid yearless date string / parse a yearless date string",
        source: "reference, Yearless dates",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_yearless_date_string(s),
                crate::parse_yearless_date(s),
                Value::YearlessDate,
            )
        },
    },
    Algorithm {
        name: "time",
        title: "valid time string / parse a time string",
        source: "reference, Times (seed 002 §2.4.4.8 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_time_string(s),
                crate::parse_time(s),
                Value::Time,
            )
        },
    },
    Algorithm {
        name: "local-date-time",
        title: "valid floating date and time string / parse a floating date and time string",
        source: "reference, Floating dates and times (seed 002 §2.4.4.4 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_local_date_time_string(s),
                crate::parse_local_date_time(s),
                Value::LocalDateTime,
            )
        },
    },
    Algorithm {
        name: "time-zone-offset",
        title: "valid time-zone offset string / parse a time-zone offset string",
        source: "reference, Time zones",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_time_zone_offset_string(s),
                crate::parse_time_zone_offset(s),
                Value::TimeZoneOffset,
            )
        },
    },
    Algorithm {
        name: "global-date-time",
        title: "valid global date and time string / parse a global date and time string",
        source: "reference, Global dates and times (seed 002 §2.4.4.3 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_global_date_time_string(s),
                crate::parse_global_date_time(s),
                Value::GlobalDateTime,
            )
        },
    },
    Algorithm {
        name: "date-with-optional-time",
        title: "valid date string with optional time / parse a date or time string",
        source: "reference, Vaguer moments in time",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_date_string_with_optional_time(s),
                crate::parse_date_or_time(s),
                Value::DateOrTime,
            )
        },
    },
    Algorithm {
        name: "datetime",
        title: "valid datetime / parse a string as a datetime value",
        source: "seed 002 §2.4.4.1",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| match spec {
            Spec::Seed004 => outcome(
                crate::is_valid_datetime_seed004(s),
                crate::parse_datetime_seed004(s),
                Value::GlobalDateTime,
            ),
            Spec::Standard | Spec::Seed002 => outcome(
                crate::is_valid_datetime(s),
                crate::parse_datetime(s),
                Value::GlobalDateTime,
            ),
        },
    },
    Algorithm {
        name: "date-or-time",
        title: "valid date or time string / parse a date or time string",
        source: "seed 002 §2.4.4.2",
        specs: &[Spec::Standard, Spec::Seed002, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: true,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, context, .. }, s| {
            let r = match spec {
                Spec::Seed004 => crate::parse_date_or_time_string_seed004(s, context),
                Spec::Standard | Spec::Seed002 => crate::parse_date_or_time_string(s, context),
            };
            let any = r.date.is_some() || r.time.is_some() || r.timezone.is_some();
            found(r.valid, any.then_some(r), Value::DateOrTimeResults)
        },
    },
    Algorithm {
        name: "duration",
        title: "valid duration string / parse a duration string",
        source: "reference, Durations (seed 002 §2.4.4.9 placeholder)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_duration_string(s),
                crate::parse_duration(s),
                Value::Duration,
            )
        },
    },
    Algorithm {
        name: "tokens",
        title: "set of space-separated tokens / split a string on spaces",
        source: "seed 002 §2.4.5 (every string is a valid set)",
        specs: &[Spec::Standard, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let tokens = match spec {
                Spec::Seed004 => crate::split_on_spaces_seed004(s),
                Spec::Standard | Spec::Seed002 => crate::split_on_spaces(s),
            };
            Outcome {
                valid: true,
                value: Some(Value::Tokens(
                    tokens.into_iter().map(str::to_owned).collect(),
                )),
                error: None,
            }
        },
    },
    Algorithm {
        name: "unique-tokens",
        title: "unordered/ordered set of unique space-separated tokens",
        source: "seed 002 §2.4.5 (the value drops repeated tokens)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| Outcome {
            valid: crate::is_valid_unique_tokens(s),
            value: Some(Value::Tokens(
                crate::unique_tokens(s)
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            )),
            error: None,
        },
    },
    Algorithm {
        name: "remove-token",
        title: "remove a token from a string",
        source: "seed 002 §2.4.5 (every string is a valid set; the value is what is left)",
        specs: &[Spec::Standard, Spec::Seed004],
        seed_variant: Some(Spec::Seed004),
        has_content_variant: false,
        takes_base: false,
        options: &[Extra::Token],
        required: &[Extra::Token],
        run: |&Options { spec, token, .. }, s| {
            let token = token.unwrap_or_default();
            let rest = match spec {
                Spec::Seed004 => crate::remove_token_seed004(s, token),
                Spec::Standard | Spec::Seed002 => crate::remove_token(s, token),
            };
            found(true, Some(rest), Value::Text)
        },
    },
    Algorithm {
        name: "commas",
        title: "set of comma-separated tokens / split a string on commas",
        source: "reference, Comma-separated tokens (seed 002 §2.4.6 keeps surrounding spaces; every string is a valid set)",
        specs: &[Spec::Standard, Spec::Seed002],
        seed_variant: Some(Spec::Seed002),
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |&Options { spec, .. }, s| {
            let tokens = match spec {
                Spec::Seed002 => crate::split_on_commas_seed(s),
                Spec::Standard | Spec::Seed004 => crate::split_on_commas(s),
            };
            Outcome {
                valid: true,
                value: Some(Value::Tokens(
                    tokens.into_iter().map(str::to_owned).collect(),
                )),
                error: None,
            }
        },
    },
    Algorithm {
        name: "enumerated",
        title: "enumerated attribute: its state and valid values",
        source: "seed 002 §2.4.7 (= seed 004; the keywords and defaults are options)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[Extra::Keywords, Extra::InvalidDefault, Extra::MissingDefault],
        required: &[Extra::Keywords],
        run: |o, s| {
            let keywords: Vec<Keyword<'_, &str>> = o
                .keywords
                .unwrap_or_default()
                .iter()
                .map(|&k| Keyword::new(k, k))
                .collect();
            let attribute = EnumeratedAttribute {
                keywords: &keywords,
                invalid_value_default: o.invalid_default,
                missing_value_default: o.missing_default,
            };
            let state = attribute.state(Some(s)).map(str::to_owned);
            found(attribute.is_valid(s), state, Value::Text)
        },
    },
    Algorithm {
        name: "hash-name-reference",
        title: "valid hash-name reference / rules for parsing a hash-name reference",
        source: "seed 002 §2.4.8 (the value is the name to look up)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            let name = crate::parse_hash_name_reference(s).map(str::to_owned);
            found(crate::is_valid_hash_name_reference(s), name, Value::Text)
        },
    },
    Algorithm {
        name: "color",
        title: "valid simple color / rules for parsing simple color values",
        source: "reference, Colors",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_simple_color(s),
                crate::parse_simple_color(s),
                Value::Color,
            )
        },
    },
    Algorithm {
        name: "legacy-color",
        title: "rules for parsing a legacy color value",
        source: "reference, Colors (valid: a simple color or a CSS named color)",
        specs: STANDARD,
        seed_variant: None,
        has_content_variant: false,
        takes_base: false,
        options: &[],
        required: &[],
        run: |_, s| {
            outcome(
                crate::is_valid_legacy_color(s),
                crate::parse_legacy_color(s),
                Value::Color,
            )
        },
    },
    $($extra),*
] };
}

/// Every algorithm, in the order of the spec (`url` last, with the feature
/// `url`).
#[cfg(feature = "url")]
pub static ALGORITHMS: &[Algorithm] = registry![URL];

/// Every algorithm, in the order of the spec (`url` last, with the feature
/// `url`).
#[cfg(not(feature = "url"))]
pub static ALGORITHMS: &[Algorithm] = registry![];

/// The `url` algorithm: the URL Standard, or seed 002 §2.5.
#[cfg(feature = "url")]
const URL: Algorithm = Algorithm {
    name: "url",
    title: "valid URL / parse a URL, resolve a URL",
    source: "URL Standard (seed 002 §2.5; with a base, the input is resolved against it)",
    specs: &[Spec::Standard, Spec::Seed002],
    seed_variant: Some(Spec::Seed002),
    has_content_variant: false,
    takes_base: true,
    options: &[],
    required: &[],
    run: run_url,
};

/// The `url` algorithm. The default parses with the URL Standard against
/// the base (if any); seed 002 resolves against the base (§2.5.3) or,
/// without one, runs the steps that need none (6–9 and 13), and parses the
/// result into components (§2.5.2); its validity is §2.5.1's. The document's encoding is
/// taken to be UTF-8.
#[cfg(feature = "url")]
fn run_url(options: &Options<'_>, s: &str) -> Outcome {
    use crate::url::{self as u, QueryEncoding, UrlParts};
    let enc = QueryEncoding::UTF_8;
    match options.spec {
        Spec::Standard => {
            let base = match options.base.map(u::Url::parse) {
                None => None,
                Some(Ok(base)) => Some(base),
                Some(Err(e)) => {
                    return Outcome {
                        valid: false,
                        value: None,
                        error: Some(format!("the base URL: {e}")),
                    };
                }
            };
            let parsed = u::parse_url(s, base.as_ref(), enc);
            let valid = parsed.as_ref().is_ok_and(|p| p.valid);
            outcome(valid, parsed.map(|p| UrlParts::from(&p.url)), Value::Url)
        }
        Spec::Seed002 | Spec::Seed004 => {
            let parts = match options.base {
                Some(base) => u::seed::resolve_url(s, base, enc)
                    .and_then(|r| u::seed::parse_url(&r).map(|p| p.to_parts())),
                None => u::seed::encode_url(s, enc)
                    .and_then(|r| u::seed::parse_url(&r).map(|p| p.to_parts())),
            };
            outcome(u::seed::is_valid_url(s, enc), parts, Value::Url)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The algorithms every build registers (all but `url`), in the
    /// registry's order.
    const NAMES: [&str; 32] = [
        "compatibility-caseless",
        "boolean",
        "integer",
        "non-negative-integer",
        "positive-non-zero-integer",
        "float",
        "ratio",
        "integers",
        "floats",
        "dimension",
        "nonzero-dimension",
        "dimensions",
        "date",
        "month",
        "week",
        "yearless-date",
        "time",
        "local-date-time",
        "time-zone-offset",
        "global-date-time",
        "date-with-optional-time",
        "datetime",
        "date-or-time",
        "duration",
        "tokens",
        "unique-tokens",
        "remove-token",
        "commas",
        "enumerated",
        "hash-name-reference",
        "color",
        "legacy-color",
    ];

    impl<'a> Options<'a> {
        /// These options without the extras `a` does not take.
        fn only(mut self, a: &Algorithm) -> Self {
            let takes = |e| a.options.contains(&e);
            if !takes(Extra::Keywords) {
                self.keywords = None;
            }
            if !takes(Extra::InvalidDefault) {
                self.invalid_default = None;
            }
            if !takes(Extra::MissingDefault) {
                self.missing_default = None;
            }
            if !takes(Extra::Attribute) {
                self.attribute = None;
            }
            if !takes(Extra::Token) {
                self.token = None;
            }
            if !takes(Extra::Other) {
                self.other = None;
            }
            self
        }
    }

    #[test]
    fn every_name_is_registered_once() {
        let url = usize::from(cfg!(feature = "url"));
        assert_eq!(ALGORITHMS.len(), NAMES.len() + url);
        // In this order (the CLI's value enum follows it).
        let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).take(32).collect();
        assert_eq!(names, NAMES);
        assert_eq!(find("url").is_some(), cfg!(feature = "url"));
        for name in NAMES {
            assert_eq!(
                ALGORITHMS.iter().filter(|a| a.name == name).count(),
                1,
                "{name}"
            );
        }
    }

    #[test]
    fn every_variant_runs_and_seed_variants_are_listed() {
        for a in ALGORITHMS {
            assert_eq!(a.specs.first(), Some(&Spec::Standard), "{}", a.name);
            for &spec in a.specs {
                assert!(
                    a.run(
                        Options {
                            spec,
                            context: Context::Attribute,
                            base: None,
                            keywords: Some(&["1"]),
                            invalid_default: None,
                            missing_default: None,
                            attribute: Some("a"),
                            token: Some("1"),
                            other: Some("1"),
                        }
                        .only(a),
                        "1"
                    )
                    .is_ok(),
                    "{} {spec:?}",
                    a.name
                );
            }
            if let Some(seed) = a.seed_variant {
                assert!(a.specs.contains(&seed), "{}", a.name);
            }
            for extra in a.required {
                assert!(a.options.contains(extra), "{}", a.name);
            }
        }
    }

    #[test]
    fn unsupported_variants_are_errors() {
        let seed = Options {
            spec: Spec::Seed002,
            ..Options::default()
        };
        assert_eq!(
            run("date", seed, "x"),
            Err(RunError::UnsupportedSpec("date", Spec::Seed002))
        );
        let content = Options {
            context: Context::Content,
            ..Options::default()
        };
        assert_eq!(
            run("date", content, "x"),
            Err(RunError::UnsupportedContext("date"))
        );
        assert_eq!(
            run("nope", Options::default(), "x"),
            Err(RunError::UnknownAlgorithm)
        );
        // Seed-only algorithms accept seed 002 as their default.
        assert_eq!(
            run("ratio", seed, "1/2"),
            run("ratio", Options::default(), "1/2")
        );
        assert!(run("date-or-time", content, "12:00").is_ok());
        let based = Options {
            base: Some("http://a/"),
            ..Options::default()
        };
        assert_eq!(
            run("date", based, "x"),
            Err(RunError::UnsupportedBase("date"))
        );
    }

    #[test]
    fn errors_are_reported() {
        let out = run("date", Options::default(), "2005-02-30").unwrap();
        assert_eq!(out.value, None);
        assert_eq!(out.error.as_deref(), Some("day out of range at byte 8"));
        // The ratio steps return nothing, without an error.
        let out = run("ratio", Options::default(), "x").unwrap();
        assert_eq!((out.value, out.error), (None, None));
    }

    #[cfg(feature = "url")]
    #[test]
    fn url() {
        use crate::url::UrlParts;
        let seed = |base| Options {
            spec: Spec::Seed002,
            base,
            ..Options::default()
        };
        let parts = |out: Outcome| match out.value {
            Some(Value::Url(p)) => p,
            other => panic!("{other:?}"),
        };
        // The default: the URL Standard, against the base.
        let base = Options {
            base: Some("http://a/b/c/d;p?q"),
            ..Options::default()
        };
        let out = run("url", base, "../g").unwrap();
        assert!(out.valid);
        assert_eq!(parts(out).href, "http://a/b/g");
        let out = run("url", Options::default(), "g").unwrap();
        assert!(!out.valid);
        assert_eq!(out.value, None);
        assert!(out.error.is_some());
        let bad_base = Options {
            base: Some("nope"),
            ..Options::default()
        };
        assert!(run("url", bad_base, "g").unwrap().error.is_some());
        // The seed: resolved, then parsed.
        let out = run("url", seed(Some("http://x/")), "http:\\\\example.com\\path").unwrap();
        assert!(!out.valid);
        assert_eq!(
            parts(out),
            UrlParts {
                href: "http://example.com/path".into(),
                scheme: Some("http".into()),
                host: Some("example.com".into()),
                port: None,
                path: "/path".into(),
                query: None,
                fragment: None,
            }
        );
        // Without a base, parsed only.
        let out = run("url", seed(None), "a/b?c").unwrap();
        assert!(out.valid);
        assert_eq!(parts(out).path, "a/b");
        let out = run("url", seed(None), "a b:c").unwrap();
        assert_eq!(out.value, None);
        assert!(out.error.unwrap().contains("§2.5.2 step 3"));
    }

    #[test]
    fn outcomes() {
        let r = |name, s| run(name, Options::default(), s).unwrap();
        assert_eq!(
            r("float", "1e3"),
            Outcome {
                valid: true,
                value: Some(Value::Float(1000.0)),
                error: None,
            }
        );
        assert_eq!(
            r("float", "x"),
            Outcome {
                valid: false,
                value: None,
                error: Some("expected an ASCII digit at byte 0".into()),
            }
        );
        assert_eq!(
            r("integers", "1,2"),
            Outcome {
                valid: true,
                value: Some(Value::Integers(vec![1, 2])),
                error: None,
            }
        );
        assert_eq!(
            r("tokens", " a b "),
            Outcome {
                valid: true,
                value: Some(Value::Tokens(vec!["a".into(), "b".into()])),
                error: None,
            }
        );
        assert!(!r("unique-tokens", "a a").valid);
        assert_eq!(r("date-or-time", "x").value, None);
        assert_eq!(
            r("legacy-color", "red").value,
            Some(Value::Color(SimpleColor {
                red: 255,
                green: 0,
                blue: 0
            }))
        );
    }

    /// The entries for the rest of the library: each spec example first,
    /// then the options they need.
    #[test]
    fn enumerated_attributes() {
        // Seed 002 §2.4.7's contenteditable: "true" and "" are True, "false"
        // is False, anything else the invalid value default.
        let keywords: &[&str] = &["true", "", "false"];
        let editable = |s| {
            run(
                "enumerated",
                Options {
                    keywords: Some(keywords),
                    invalid_default: Some("inherit"),
                    ..Options::default()
                },
                s,
            )
            .unwrap()
        };
        let state = |out: Outcome| (out.valid, out.value);
        let text = |t: &str| Some(Value::Text(t.into()));
        assert_eq!(state(editable("TRUE")), (true, text("true")));
        assert_eq!(state(editable("")), (true, text("")));
        assert_eq!(state(editable("false")), (true, text("false")));
        assert_eq!(state(editable(" false")), (false, text("inherit")));
        // No invalid value default: the missing value default, then nothing.
        let dir = |missing, s| {
            run(
                "enumerated",
                Options {
                    keywords: Some(&["ltr", "rtl"]),
                    missing_default: missing,
                    ..Options::default()
                },
                s,
            )
            .unwrap()
        };
        assert_eq!(state(dir(Some("ltr"), "up")), (false, text("ltr")));
        assert_eq!(state(dir(None, "up")), (false, None));
        assert_eq!(state(dir(None, "RtL")), (true, text("rtl")));
        // The keywords are required; the others only for enumerated.
        assert_eq!(
            run("enumerated", Options::default(), "x"),
            Err(RunError::MissingOption("enumerated", Extra::Keywords))
        );
        let stray = Options {
            invalid_default: Some("x"),
            ..Options::default()
        };
        assert_eq!(
            run("integer", stray, "1"),
            Err(RunError::UnsupportedOption(
                "integer",
                Extra::InvalidDefault
            ))
        );
    }

    #[test]
    fn boolean_attributes() {
        let checked = |spec, s| {
            run(
                "boolean",
                Options {
                    spec,
                    attribute: Some("checked"),
                    ..Options::default()
                },
                s,
            )
            .unwrap()
        };
        // Seed 002 §2.4.2: presence is true, even for "false"; the value
        // must be empty or the name in any ASCII case.
        let out = checked(Spec::Standard, "false");
        assert_eq!((out.valid, out.value), (false, Some(Value::Bool(true))));
        assert!(checked(Spec::Standard, "").valid);
        assert!(checked(Spec::Standard, "CHECKED").valid);
        // Seed 004: the name in lowercase only.
        assert!(!checked(Spec::Seed004, "CHECKED").valid);
        assert!(checked(Spec::Seed004, "checked").valid);
        assert_eq!(
            run("boolean", Options::default(), ""),
            Err(RunError::MissingOption("boolean", Extra::Attribute))
        );
    }

    #[test]
    fn hash_name_references() {
        let r = |s| run("hash-name-reference", Options::default(), s).unwrap();
        let out = r("#map1");
        assert_eq!(
            (out.valid, out.value),
            (true, Some(Value::Text("map1".into())))
        );
        let out = r("page.html#a#b");
        assert_eq!(
            (out.valid, out.value),
            (false, Some(Value::Text("a#b".into())))
        );
        let out = r("map1");
        assert_eq!((out.valid, out.value, out.error), (false, None, None));
    }

    #[test]
    fn removing_tokens() {
        let remove = |spec, token, s| {
            run(
                "remove-token",
                Options {
                    spec,
                    token: Some(token),
                    ..Options::default()
                },
                s,
            )
            .unwrap()
            .value
        };
        let text = |t: &str| Some(Value::Text(t.into()));
        assert_eq!(remove(Spec::Standard, "b", "a  b\tc"), text("a c"));
        assert_eq!(remove(Spec::Standard, "b", " b a b "), text("a"));
        // Seed 004: VT is a space character.
        assert_eq!(remove(Spec::Seed004, "b", "a\u{B}b"), text("a"));
        assert_eq!(remove(Spec::Standard, "b", "a\u{B}b"), text("a\u{B}b"));
        assert_eq!(
            run("remove-token", Options::default(), "a"),
            Err(RunError::MissingOption("remove-token", Extra::Token))
        );
    }

    #[test]
    fn positive_integers_and_lists_of_floats() {
        let r = |name, s| run(name, Options::default(), s).unwrap();
        let out = r("positive-non-zero-integer", "5");
        assert_eq!(
            (out.valid, out.value),
            (true, Some(Value::NonNegativeInteger(5)))
        );
        let out = r("positive-non-zero-integer", "0");
        assert_eq!((out.valid, out.value), (false, None));
        assert!(out.error.is_some());
        let out = r("floats", "1.5, 2e1;x3 abc");
        assert_eq!(
            (out.valid, out.value),
            (false, Some(Value::Floats(vec![1.5, 20.0, 3.0, 0.0])))
        );
        assert!(r("floats", "1.5,-2,3e2").valid);
        // A valid list's numbers are valid floats: 2e308 is not one.
        assert!(!r("floats", "1,2e308").valid);
    }

    #[test]
    fn compatibility_caseless_matching() {
        let matches = |other, s| {
            run(
                "compatibility-caseless",
                Options {
                    other: Some(other),
                    ..Options::default()
                },
                s,
            )
            .unwrap()
        };
        let out = matches("straße", "STRASSE");
        assert_eq!(
            (out.valid, out.value),
            (true, Some(Value::Text("strasse".into())))
        );
        assert!(matches("FILE", "\u{FB01}le").valid);
        assert!(!matches("b", "a").valid);
        assert_eq!(
            run("compatibility-caseless", Options::default(), "a"),
            Err(RunError::MissingOption(
                "compatibility-caseless",
                Extra::Other
            ))
        );
    }
}
