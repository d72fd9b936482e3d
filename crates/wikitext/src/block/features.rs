//! What the header turns on for the block pass.

/// What the header turns on for the block pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Features {
    /// `#Extend open`: bare openers open containers.
    pub(crate) open: bool,
    /// `#Extend table`: lines that start and end with `|` are table rows.
    pub(crate) tables: bool,
    /// `#Escape \`: an escaped `|` is no cell bar.
    pub(crate) escapes: bool,
    /// `#Extend figure` (with `image`): how a compact term is read to see
    /// whether it is a lone image, which makes the item a figure.
    pub(crate) figures: Option<crate::inline::Syntax>,
}

impl Features {
    /// What the header `meta` turns on.
    pub(crate) fn of(meta: &crate::model::Metadata) -> Features {
        Features {
            open: meta.open,
            tables: meta.table,
            escapes: meta.escape,
            figures: (meta.figure && meta.image).then(|| crate::inline::Syntax::of(meta)),
        }
    }
}
