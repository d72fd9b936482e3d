//! `Serialize` for the value types (feature `serde`), shaped as plain JSON:
//!
//! | type | JSON |
//! |---|---|
//! | [`Month`] | `{"year": 2005, "month": 2}` |
//! | [`Date`] | `{"year": 2005, "month": 2, "day": 28}` |
//! | [`YearlessDate`] | `{"month": 2, "day": 29}` |
//! | [`Time`] | `{"hour": 19, "minute": 45, "second": 45.456}` (`second` is an integer when whole) |
//! | [`LocalDateTime`] | the date's and the time's fields in one object |
//! | [`TimeZoneOffset`] | `{"hours": -4, "minutes": -30}` |
//! | [`GlobalDateTime`] | the local fields, `"timezone": {…}` and `"utc": {…}` (the UTC moment's fields) |
//! | [`Week`] | `{"year": 2004, "week": 53}` |
//! | [`Duration`] | `{"seconds": 5400.5}` |
//! | [`DateOrTime`] | the inner value's fields plus `"kind": "date" \| "time" \| "global-date-time"` |
//! | [`DateOrTimeResults`] | `{"date": {…} \| null, "time": …, "timezone": …, "valid": bool}` |
//! | [`Dimension`] | `{"value": 50, "type": "length" \| "percentage"}` |
//! | [`ListDimension`] | `{"value": 2, "type": "percentage" \| "relative" \| "absolute"}` |
//! | [`Ratio`] | `{"number1": 3, "number2": 4}`, `{"number1": 75, "denominator": 100, "punctuation": "%"}` or `{"number1": 3}` |
//! | [`SimpleColor`] | `{"red": 255, "green": 128, "blue": 0}` |
//! | [`Error`] | `{"message": "month out of range", "position": 5}` |
//! | `UrlParts` (feature `url`) | `{"href", "scheme", "host", "port", "path", "query", "fragment"}`, strings or null (`path` always a string) |
//! | [`Outcome`] | `{"valid": bool, "value": … \| null, "error": "message" \| null}` |
//!
//! Integral floats (`Float`, dimension values, ratio numbers, durations)
//! are written as JSON integers when they fit `i64` exactly, so `50` rather
//! than `50.0`.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::algorithms::{Outcome, Value};
use crate::{
    Date, DateOrTime, DateOrTimeResults, Dimension, DimensionType, DimensionUnit, Duration, Error,
    GlobalDateTime, ListDimension, LocalDateTime, Month, Ratio, SimpleColor, Time, TimeZoneOffset,
    Week, YearlessDate,
};

/// A number written as an integer when it is one (and fits `i64`).
struct Number(f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.0;
        // 2^63 as f64; below it every integral f64 converts exactly.
        if n.fract() == 0.0 && n.abs() < 9.223_372_036_854_776e18 {
            s.serialize_i64(n as i64)
        } else {
            s.serialize_f64(n)
        }
    }
}

/// Types whose JSON object can be merged into another's.
trait Fields {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

macro_rules! object {
    ($ty:ty) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(None)?;
                self.fields(&mut map)?;
                map.end()
            }
        }
    };
}

impl Fields for Month {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("year", &self.year())?;
        map.serialize_entry("month", &self.month())
    }
}

impl Fields for Date {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("year", &self.year())?;
        map.serialize_entry("month", &self.month())?;
        map.serialize_entry("day", &self.day())
    }
}

impl Fields for YearlessDate {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("month", &self.month())?;
        map.serialize_entry("day", &self.day())
    }
}

impl Fields for Time {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("hour", &self.hour())?;
        map.serialize_entry("minute", &self.minute())?;
        if self.nanosecond() == 0 {
            map.serialize_entry("second", &self.second())
        } else {
            map.serialize_entry("second", &self.seconds_f64())
        }
    }
}

impl Fields for LocalDateTime {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        self.date().fields(map)?;
        self.time().fields(map)
    }
}

impl Fields for TimeZoneOffset {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("hours", &self.hours())?;
        map.serialize_entry("minutes", &self.minutes())
    }
}

impl Fields for GlobalDateTime {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        self.date().fields(map)?;
        self.time().fields(map)?;
        map.serialize_entry("timezone", &self.offset())?;
        map.serialize_entry("utc", &self.to_utc())
    }
}

impl Fields for Week {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("year", &self.year())?;
        map.serialize_entry("week", &self.week())
    }
}

impl Fields for Duration {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if self.nanosecond() == 0 {
            map.serialize_entry("seconds", &self.seconds())
        } else {
            map.serialize_entry("seconds", &self.seconds_f64())
        }
    }
}

impl Fields for DateOrTime {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            Self::Date(d) => {
                map.serialize_entry("kind", "date")?;
                d.fields(map)
            }
            Self::Time(t) => {
                map.serialize_entry("kind", "time")?;
                t.fields(map)
            }
            Self::GlobalDateTime(g) => {
                map.serialize_entry("kind", "global-date-time")?;
                g.fields(map)
            }
        }
    }
}

impl Fields for DateOrTimeResults {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("date", &self.date)?;
        map.serialize_entry("time", &self.time)?;
        map.serialize_entry("timezone", &self.timezone)?;
        map.serialize_entry("valid", &self.valid)
    }
}

impl Fields for Dimension {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("value", &Number(self.value))?;
        let kind = match self.kind {
            DimensionType::Length => "length",
            DimensionType::Percentage => "percentage",
        };
        map.serialize_entry("type", kind)
    }
}

impl Fields for ListDimension {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("value", &Number(self.value))?;
        let unit = match self.unit {
            DimensionUnit::Percentage => "percentage",
            DimensionUnit::Relative => "relative",
            DimensionUnit::Absolute => "absolute",
        };
        map.serialize_entry("type", unit)
    }
}

impl Fields for Ratio {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match *self {
            Self::One(a) => map.serialize_entry("number1", &Number(a)),
            Self::Two(a, b) => {
                map.serialize_entry("number1", &Number(a))?;
                map.serialize_entry("number2", &Number(b))
            }
            Self::WithDenominator(a, d) => {
                map.serialize_entry("number1", &Number(a))?;
                map.serialize_entry("denominator", &d.value)?;
                map.serialize_entry("punctuation", &d.character)
            }
        }
    }
}

impl Fields for SimpleColor {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("red", &self.red)?;
        map.serialize_entry("green", &self.green)?;
        map.serialize_entry("blue", &self.blue)
    }
}

impl Fields for Error {
    fn fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("message", &self.kind().to_string())?;
        map.serialize_entry("position", &self.position())
    }
}

object!(Month);
object!(Date);
object!(YearlessDate);
object!(Time);
object!(LocalDateTime);
object!(TimeZoneOffset);
object!(GlobalDateTime);
object!(Week);
object!(Duration);
object!(DateOrTime);
object!(DateOrTimeResults);
object!(Dimension);
object!(ListDimension);
object!(Ratio);
object!(SimpleColor);
object!(Error);

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Integer(n) => s.serialize_i64(*n),
            Self::NonNegativeInteger(n) => s.serialize_u64(*n),
            Self::Float(n) => Number(*n).serialize(s),
            Self::Ratio(r) => r.serialize(s),
            Self::Integers(v) => v.serialize(s),
            Self::Dimension(d) => d.serialize(s),
            Self::Dimensions(v) => v.serialize(s),
            Self::Date(d) => d.serialize(s),
            Self::Month(m) => m.serialize(s),
            Self::Week(w) => w.serialize(s),
            Self::YearlessDate(d) => d.serialize(s),
            Self::Time(t) => t.serialize(s),
            Self::LocalDateTime(d) => d.serialize(s),
            Self::TimeZoneOffset(o) => o.serialize(s),
            Self::GlobalDateTime(g) => g.serialize(s),
            Self::DateOrTime(d) => d.serialize(s),
            Self::DateOrTimeResults(r) => {
                // The outcome carries `valid`; the value is what was found.
                let mut map = s.serialize_map(None)?;
                map.serialize_entry("date", &r.date)?;
                map.serialize_entry("time", &r.time)?;
                map.serialize_entry("timezone", &r.timezone)?;
                map.end()
            }
            Self::Duration(d) => d.serialize(s),
            Self::Tokens(v) => v.serialize(s),
            Self::Floats(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for &n in v {
                    seq.serialize_element(&Number(n))?;
                }
                seq.end()
            }
            Self::Bool(b) => s.serialize_bool(*b),
            Self::Text(t) => s.serialize_str(t),
            Self::Color(c) => c.serialize(s),
            #[cfg(feature = "url")]
            Self::Url(parts) => parts.serialize(s),
        }
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("valid", &self.valid)?;
        map.serialize_entry("value", &self.value)?;
        map.serialize_entry("error", &self.error)?;
        map.end()
    }
}
