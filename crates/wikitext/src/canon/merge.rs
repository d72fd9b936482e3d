//! Lists that stand in a row, merged as their text reads them: the one
//! rule behind both the repair of a document and the adoption of what its
//! text reads back as.

use crate::diag::{Code, Severity};
use crate::model::Block;

use super::{Fixer, Silent};

/// Why two lists in a row are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Merge {
    /// The document had them: a repair, with a warning (silent under
    /// [`Silent::MERGED_LISTS`]).
    Repair,
    /// Its text reads them as one: a read-back difference.
    ReadBack,
}

/// Adds a block after others. A list right after a list of its type, or a
/// definition list right after a definition list, reads back as one with
/// it (text cannot tell them apart), so it is merged into it and reported.
pub(super) fn push_merging(out: &mut Vec<Block>, block: Block, how: Merge, fixer: &mut Fixer) {
    let (pos, is_list) = match (out.last_mut(), block) {
        (
            Some(Block::List {
                kind: last,
                items: last_items,
                ..
            }),
            Block::List { kind, items, pos },
        ) if *last == kind => {
            last_items.extend(items);
            (pos, true)
        }
        (
            Some(Block::DefinitionList {
                items: last_items, ..
            }),
            Block::DefinitionList { items, pos, .. },
        ) => {
            last_items.extend(items);
            (pos, false)
        }
        (_, block) => {
            out.push(block);
            return;
        }
    };
    match how {
        Merge::Repair => fixer.report_unless(
            Silent::MERGED_LISTS,
            Code::NotRoundTrip,
            Severity::Warning,
            if is_list {
                "two lists of the same type in a row cannot be told apart in text; they were merged"
            } else {
                "two definition lists in a row cannot be told apart in text; they were merged"
            },
            pos,
        ),
        Merge::ReadBack => fixer.difference(
            if is_list {
                "a list reads back as part of the list before it".to_owned()
            } else {
                "a definition list reads back as part of the one before it".to_owned()
            },
            pos,
        ),
    }
}
