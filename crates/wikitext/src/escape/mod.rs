//! The escape extension (`docs/format.md`, "Escapes"): in a document whose
//! header declares `#Escape \`, a backslash before an escapable character
//! ([`is_escapable`]) makes that character plain text.
//!
//! Reading: the inline pass works on a masked copy of the text, in which
//! every escaped character but the space is `!`, punctuation that is no
//! markup, so the seed's rules and scans run unchanged and an escaped
//! character counts as a side character (rule 3); an escaped space and
//! its backslash are white space. Text is emitted from the original with the
//! escaping backslashes dropped; link values are taken from the original
//! as written. The block scanners need nothing: they see the backslash,
//! which begins no bullet, heading, rule or blockquote, and which breaks a
//! trailing `::` (`:\:`) and a run of three spaces (` \  `).

mod read;
mod write;

pub(crate) use read::{Masked, mask, unescaped};
pub(crate) use write::{Marks, Memo, Spell};
