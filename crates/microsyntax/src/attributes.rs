//! Boolean attributes (seed 002 §2.4.2) and keywords and enumerated
//! attributes (seed 002 §2.4.7).
//!
//! Seed 004 required a boolean attribute's value to be the canonical name
//! "exactly … and in lowercase"; seed 002 and the later standard accept any
//! ASCII case. The enumerated-attribute rules are the same in every draft.

/// Spec: seed 002 §2.4.2 (boolean attributes): the state a boolean
/// attribute represents. Presence is true, whatever the value (even
/// `"false"`); absence is false.
///
/// ```
/// use microsyntax::boolean_attribute_state;
/// assert!(boolean_attribute_state(Some("false")));
/// assert!(!boolean_attribute_state(None));
/// ```
pub const fn boolean_attribute_state(value: Option<&str>) -> bool {
    value.is_some()
}

/// Spec: seed 002 §2.4.2: a present boolean attribute's value must be the
/// empty string or an ASCII case-insensitive match for the attribute's
/// canonical name, with no leading or trailing white space.
///
/// ```
/// use microsyntax::is_valid_boolean_attribute_value as valid;
/// assert!(valid("checked", "") && valid("checked", "CHECKED"));
/// assert!(!valid("checked", "true") && !valid("checked", " checked"));
/// ```
pub fn is_valid_boolean_attribute_value(canonical_name: &str, value: &str) -> bool {
    value.is_empty() || value.eq_ignore_ascii_case(canonical_name)
}

/// Spec: seed 004 (boolean attributes): the value must be empty or the
/// canonical name exactly, in lowercase.
///
/// ```
/// use microsyntax::is_valid_boolean_attribute_value_seed004 as valid;
/// assert!(valid("checked", "checked"));
/// assert!(!valid("checked", "Checked"));
/// ```
pub fn is_valid_boolean_attribute_value_seed004(canonical_name: &str, value: &str) -> bool {
    value.is_empty() || (value == canonical_name && !value.bytes().any(|b| b.is_ascii_uppercase()))
}

/// One keyword of an enumerated attribute and the state it maps to. The
/// keyword is usually `&'static str` (an attribute's keywords are fixed),
/// but may borrow from anywhere, e.g. a list given at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyword<'k, S> {
    /// The keyword, compared ASCII case-insensitively. May be empty.
    pub keyword: &'k str,
    /// The state the keyword maps to (synonyms share a state).
    pub state: S,
    /// Whether authors may use it; non-conforming keywords are still
    /// recognized but make the value invalid.
    pub conforming: bool,
}

impl<'k, S> Keyword<'k, S> {
    /// A conforming keyword.
    pub const fn new(keyword: &'k str, state: S) -> Self {
        Self {
            keyword,
            state,
            conforming: true,
        }
    }

    /// A keyword kept only for compatibility (non-conforming).
    pub const fn obsolete(keyword: &'k str, state: S) -> Self {
        Self {
            keyword,
            state,
            conforming: false,
        }
    }
}

/// Spec: seed 002 §2.4.7 "enumerated attribute": keywords mapping to
/// states, with an optional *invalid value default* and an optional
/// *missing value default*.
///
/// ```
/// use microsyntax::{EnumeratedAttribute, Keyword};
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum Editable { True, False, Inherit }
/// // contenteditable, as the seed describes it: "" and "true" are True,
/// // "false" is False, anything else is the invalid value default False.
/// static CONTENTEDITABLE: EnumeratedAttribute<Editable> = EnumeratedAttribute {
///     keywords: &[
///         Keyword::new("true", Editable::True),
///         Keyword::new("", Editable::True),
///         Keyword::new("false", Editable::False),
///     ],
///     invalid_value_default: Some(Editable::False),
///     missing_value_default: Some(Editable::Inherit),
/// };
/// assert_eq!(CONTENTEDITABLE.state(Some("TRUE")), Some(Editable::True));
/// assert_eq!(CONTENTEDITABLE.state(Some("")), Some(Editable::True));
/// assert_eq!(CONTENTEDITABLE.state(Some("yes")), Some(Editable::False));
/// assert_eq!(CONTENTEDITABLE.state(None), Some(Editable::Inherit));
/// assert!(CONTENTEDITABLE.is_valid("False"));
/// assert!(!CONTENTEDITABLE.is_valid(" false"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct EnumeratedAttribute<'k, S> {
    /// The keywords, in order; the first match wins.
    pub keywords: &'k [Keyword<'k, S>],
    /// The state of a present value that matches no keyword, if any.
    pub invalid_value_default: Option<S>,
    /// The state of a missing attribute, if any.
    pub missing_value_default: Option<S>,
}

impl<'k, S: Copy> EnumeratedAttribute<'k, S> {
    /// The keyword entry `value` matches ASCII case-insensitively, if any.
    pub fn keyword(&self, value: &str) -> Option<&'k Keyword<'k, S>> {
        self.keywords
            .iter()
            .find(|k| k.keyword.eq_ignore_ascii_case(value))
    }

    /// Spec: seed 002 §2.4.7: the state the attribute represents, given its
    /// value (`None` when the attribute is absent). A matching keyword's
    /// state; else the invalid value default; else the missing value
    /// default; else no state.
    pub fn state(&self, value: Option<&str>) -> Option<S> {
        match value {
            None => self.missing_value_default,
            Some(v) => match self.keyword(v) {
                Some(k) => Some(k.state),
                None => self.invalid_value_default.or(self.missing_value_default),
            },
        }
    }

    /// Spec: seed 002 §2.4.7: a specified value must be an ASCII
    /// case-insensitive match for a conforming keyword, with no leading or
    /// trailing white space.
    pub fn is_valid(&self, value: &str) -> bool {
        self.keyword(value).is_some_and(|k| k.conforming)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Dir {
        Ltr,
        Rtl,
    }

    static NO_DEFAULTS: EnumeratedAttribute<Dir> = EnumeratedAttribute {
        keywords: &[
            Keyword::new("ltr", Dir::Ltr),
            Keyword::new("rtl", Dir::Rtl),
            Keyword::obsolete("right", Dir::Rtl),
        ],
        invalid_value_default: None,
        missing_value_default: None,
    };

    static MISSING_ONLY: EnumeratedAttribute<Dir> = EnumeratedAttribute {
        keywords: &[Keyword::new("ltr", Dir::Ltr), Keyword::new("rtl", Dir::Rtl)],
        invalid_value_default: None,
        missing_value_default: Some(Dir::Ltr),
    };

    #[test]
    fn states() {
        assert_eq!(NO_DEFAULTS.state(Some("RTL")), Some(Dir::Rtl));
        assert_eq!(NO_DEFAULTS.state(Some("right")), Some(Dir::Rtl));
        assert_eq!(NO_DEFAULTS.state(Some("up")), None);
        assert_eq!(NO_DEFAULTS.state(None), None);
        // No invalid value default: an invalid value falls back to the
        // missing value default.
        assert_eq!(MISSING_ONLY.state(Some("up")), Some(Dir::Ltr));
        assert_eq!(MISSING_ONLY.state(None), Some(Dir::Ltr));
    }

    #[test]
    fn validity() {
        assert!(NO_DEFAULTS.is_valid("Ltr"));
        assert!(!NO_DEFAULTS.is_valid("right")); // non-conforming
        assert!(!NO_DEFAULTS.is_valid("ltr "));
        assert!(!NO_DEFAULTS.is_valid("ſtr")); // U+017F is not ASCII
    }

    #[test]
    fn booleans() {
        assert!(is_valid_boolean_attribute_value("disabled", "DiSaBlEd"));
        assert!(!is_valid_boolean_attribute_value("disabled", "disabled "));
        assert!(is_valid_boolean_attribute_value_seed004("disabled", ""));
        assert!(!is_valid_boolean_attribute_value_seed004(
            "disabled", "DISABLED"
        ));
        assert!(!is_valid_boolean_attribute_value_seed004(
            "Disabled", "Disabled"
        ));
        assert!(boolean_attribute_state(Some("")));
    }
}
