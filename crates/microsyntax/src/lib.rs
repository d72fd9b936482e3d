//! The HTML common microsyntaxes: the parsing rules and validity checks for
//! numbers, dates and times, tokens, keywords and colors found in attribute
//! values.
//!
//! A leaf crate: no I/O, no required dependencies. It knows nothing about
//! documents, elements or encodings; callers hand it attribute values as `&str`.
