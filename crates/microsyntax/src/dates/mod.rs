//! Dates and times: seed 002 §2.4.4 and the reference's "Dates and times".
//!
//! - [`calendar`](self) helpers: the number of days in a month (seed 002
//!   §2.4.4, Gregorian leap years) and the number of weeks in a week-year;
//! - the value types ([`Month`], [`Date`], [`YearlessDate`], [`Time`],
//!   [`LocalDateTime`], [`TimeZoneOffset`], [`GlobalDateTime`], [`Week`],
//!   [`DateOrTime`]) and their "valid … string" serializers (`Display`);
//! - the reference's parsing rules and validity checks for each, which fill
//!   seed 002's placeholders §2.4.4.3–§2.4.4.8;
//! - the seed's own "datetime" (§2.4.4.1) and "date or time string"
//!   (§2.4.4.2) algorithms, with seed 004's variants;
//! - durations (the reference; seed 002 §2.4.4.9 "time offsets" is a
//!   placeholder for them).
//!
//! No parser here allocates.

mod calendar;
mod duration;
mod parse;
mod seed;
mod types;

pub use calendar::{days_in_month, is_leap_year, weeks_in_year};
pub use duration::{Duration, is_valid_duration_string, parse_duration};
pub use parse::{
    is_valid_date_string, is_valid_date_string_with_optional_time,
    is_valid_global_date_time_string, is_valid_local_date_time_string, is_valid_month_string,
    is_valid_normalized_global_date_time_string, is_valid_normalized_local_date_time_string,
    is_valid_time_string, is_valid_time_zone_offset_string, is_valid_week_string,
    is_valid_yearless_date_string, parse_date, parse_date_or_time, parse_global_date_time,
    parse_local_date_time, parse_month, parse_time, parse_time_zone_offset, parse_week,
    parse_yearless_date,
};
pub use seed::{
    Context, DateOrTimeResults, is_valid_date_or_time_string, is_valid_datetime,
    is_valid_datetime_seed004, parse_date_or_time_string, parse_date_or_time_string_seed004,
    parse_datetime, parse_datetime_seed004,
};
pub use types::{
    Date, DateOrTime, GlobalDateTime, LocalDateTime, MAX_YEAR, Month, Time, TimeZoneOffset, Week,
    YearlessDate,
};
