//! References: seed 002 §2.4.8 "hash-name references" (seed 004 calls them
//! "hashed ID references").
//!
//! The parsing rules end by looking up an element, which is the caller's
//! business: this module returns the name to look up. The drafts differ in
//! how to compare it: seed 002 matches `id` or `name` values with a
//! [compatibility caseless](crate::compatibility_caseless_eq) comparison,
//! seed 004 case-insensitively, and the later standard exactly
//! ([`str::eq`]).

/// Spec: seed 002 §2.4.8 "rules for parsing a hash-name reference", steps
/// 1–2: the text after the first `#`, or `None` when there is no `#` or
/// nothing follows it.
///
/// ```
/// use microsyntax::parse_hash_name_reference;
/// assert_eq!(parse_hash_name_reference("#map1"), Some("map1"));
/// assert_eq!(parse_hash_name_reference("page.html#a#b"), Some("a#b"));
/// assert_eq!(parse_hash_name_reference("map1#"), None);
/// assert_eq!(parse_hash_name_reference("map1"), None);
/// ```
pub fn parse_hash_name_reference(input: &str) -> Option<&str> {
    // Step 1.
    let (_, s) = input.split_once('#')?;
    if s.is_empty() {
        return None;
    }
    // Step 2. (Step 3, the element look-up, is the caller's.)
    Some(s)
}

/// Spec: seed 002 §2.4.8 "valid hash-name reference": `#` followed by a
/// name. Whether an element has that name is the caller's to check; this
/// tests the shape (a `#` first and a non-empty name).
///
/// ```
/// assert!(microsyntax::is_valid_hash_name_reference("#nav"));
/// assert!(!microsyntax::is_valid_hash_name_reference("nav"));
/// ```
pub fn is_valid_hash_name_reference(s: &str) -> bool {
    s.len() > 1 && s.starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps() {
        assert_eq!(parse_hash_name_reference(""), None);
        assert_eq!(parse_hash_name_reference("#"), None);
        assert_eq!(parse_hash_name_reference("##"), Some("#"));
        assert_eq!(parse_hash_name_reference(" # x"), Some(" x"));
        assert!(!is_valid_hash_name_reference("#"));
    }
}
