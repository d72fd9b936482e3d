//! The typed error the parsing rules return when the spec says "return an
//! error" or "fail".
//!
//! An [`Error`] is small and `Copy`: it says what went wrong ([`ErrorKind`])
//! and at which byte offset of the input the algorithm stopped, so a caller
//! can point at the offending character. Building one never allocates.

use core::fmt;

/// Why a parsing algorithm returned an error, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    position: usize,
}

impl Error {
    /// Creates an error of `kind` detected at byte offset `position`.
    pub const fn new(kind: ErrorKind, position: usize) -> Self {
        Self { kind, position }
    }

    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the input where the algorithm stopped. It equals the
    /// input's length when the input ended too early.
    pub const fn position(&self) -> usize {
        self.position
    }
}

/// A component of a date, time, time-zone offset or week, named in
/// [`ErrorKind::OutOfRange`] and [`ErrorKind::DigitCount`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// The year (or week-year).
    Year,
    /// The month, 1 to 12.
    Month,
    /// The day of the month, 1 to the number of days in that month.
    Day,
    /// The week of a week-year, 1 to 52 or 53.
    Week,
    /// The hour, 0 to 23.
    Hour,
    /// The minute, 0 to 59.
    Minute,
    /// The second, 0 up to but excluding 60.
    Second,
    /// The hours of a time-zone offset, 0 to 23.
    OffsetHours,
    /// The minutes of a time-zone offset, 0 to 59.
    OffsetMinutes,
}

impl Component {
    fn name(self) -> &'static str {
        match self {
            Self::Year => "year",
            Self::Month => "month",
            Self::Day => "day",
            Self::Week => "week",
            Self::Hour => "hour",
            Self::Minute => "minute",
            Self::Second => "second",
            Self::OffsetHours => "time-zone hours",
            Self::OffsetMinutes => "time-zone minutes",
        }
    }
}

/// What went wrong in a parsing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input (after any leading white space the algorithm skips) ended
    /// where the syntax needs more characters: `""`, `"-"`, `"2004-"`.
    UnexpectedEnd,
    /// The character at the error's position is not one the syntax allows
    /// there; the payload describes what was expected, e.g. `"an ASCII digit"`.
    Expected(&'static str),
    /// A run of digits has the wrong length, e.g. a year of three digits or a
    /// month of one digit.
    DigitCount(Component),
    /// A component is outside its range: month 13, day 31 of April, hour 24,
    /// week 53 of a 52-week year, a year of zero.
    OutOfRange(Component),
    /// The number is too large for the value type this crate returns: an
    /// integer beyond `i64`/`u64`, a float that rounds to ±2^1024, a duration
    /// beyond `u64` seconds, a year beyond [`MAX_YEAR`](crate::MAX_YEAR).
    Overflow,
    /// Characters are left over after a complete value, where the algorithm
    /// requires the end of the input.
    TrailingCharacters,
    /// A negative number where only non-negative numbers are allowed.
    Negative,
    /// Zero where the algorithm requires a non-zero value.
    Zero,
    /// A duration with years or months, which a duration cannot hold (they
    /// are not a fixed number of seconds).
    MonthsInDuration,
    /// A duration string without any component, e.g. `"P"` or `"PT"`.
    NoComponents,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEnd => f.write_str("unexpected end of input"),
            Self::Expected(what) => write!(f, "expected {what}"),
            Self::DigitCount(c) => write!(f, "wrong number of digits in the {}", c.name()),
            Self::OutOfRange(c) => write!(f, "{} out of range", c.name()),
            Self::Overflow => f.write_str("number too large"),
            Self::TrailingCharacters => f.write_str("unexpected characters after the value"),
            Self::Negative => f.write_str("negative number where none is allowed"),
            Self::Zero => f.write_str("zero where a non-zero value is required"),
            Self::MonthsInDuration => f.write_str("a duration cannot contain months or years"),
            Self::NoComponents => f.write_str("a duration needs at least one component"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.position)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_lowercase_without_period() {
        let e = Error::new(ErrorKind::OutOfRange(Component::Month), 5);
        assert_eq!(e.to_string(), "month out of range at byte 5");
        let e = Error::new(ErrorKind::Expected("an ASCII digit"), 0);
        assert_eq!(e.to_string(), "expected an ASCII digit at byte 0");
    }
}
