//! The URLs a rename writes: which links name the moved page, and each one
//! written again from its page's folder.

use std::path::Path;
use std::path::PathBuf;

use crate::edit::urlpath::{encode, relative};
use crate::links::Target;

/// The move: the page's old path and its new one (segments).
pub(super) struct Moves {
    pub(super) old: PathBuf,
    pub(super) new: Vec<String>,
    /// The page's folder, when the page is what a link to that folder
    /// stands for (its first index file, [`crate::links::INDEX_FILES`]):
    /// such links point to the page too.
    pub(super) index_of: Option<PathBuf>,
    /// Whether a folder link that pointed to the page can stay a folder
    /// link (the page keeps the first index file's name); otherwise it
    /// names the page's new file.
    pub(super) folder_form: bool,
}

impl Moves {
    /// The new URL for `url`, written in the page at `page` (below DIR)
    /// which will be in the folder `folder`: a link to the moved page
    /// points to its new path; in the moved page itself (`own`), every
    /// other relative link is written from the new folder. `None` to keep
    /// it.
    pub(super) fn new_url(
        &self,
        url: &str,
        page: &Path,
        folder: &[String],
        own: bool,
    ) -> Option<String> {
        let cut = url.find(['?', '#']).unwrap_or(url.len());
        let (path, rest) = url.split_at(cut);
        if path.is_empty() {
            return None;
        }
        let target = Target::of(url, page)?;
        let from_root = path.starts_with('/');
        let to_folder = self.index_of.as_ref() == Some(&target.path);
        let to: Vec<String> = if to_folder && self.folder_form {
            let mut to = self.new.clone();
            if let Some(last) = to.last_mut() {
                last.clear();
            }
            to
        } else if target.path == self.old || to_folder {
            self.new.clone()
        } else if own && !from_root {
            let mut to: Vec<String> = target
                .path
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if path.ends_with('/') {
                to.push(String::new());
            }
            to
        } else {
            return None;
        };
        let written = if from_root {
            format!("/{}", encode(&to))
        } else {
            relative(folder, &to)
        };
        Some(format!("{written}{rest}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::edit::urlpath::segs;

    #[test]
    fn links_to_the_page_and_the_pages_own_links_follow_the_move() {
        let moves = Moves {
            old: PathBuf::from("a/p.txt"),
            new: segs("b/c/q.txt"),
            index_of: None,
            folder_form: false,
        };
        let new = |url: &str, page: &str, own: bool| {
            let folder = if own { segs("b/c") } else { segs(page) };
            let folder = if own {
                folder
            } else {
                folder[..folder.len() - 1].to_vec()
            };
            let page = if own { "a/p.txt" } else { page };
            moves.new_url(url, Path::new(page), &folder, own)
        };
        // Other pages: only links to the page change, query and fragment
        // kept; root-relative links stay root-relative.
        assert_eq!(
            new("p.txt#top", "a/x.txt", false).as_deref(),
            Some("../b/c/q.txt#top")
        );
        assert_eq!(
            new("a/p.txt?x=1", "y.txt", false).as_deref(),
            Some("b/c/q.txt?x=1")
        );
        assert_eq!(
            new("/a/p.txt", "y.txt", false).as_deref(),
            Some("/b/c/q.txt")
        );
        assert_eq!(new("a/other.txt", "y.txt", false), None);
        assert_eq!(new("#top", "a/x.txt", false), None);
        assert_eq!(new("https://x.org/a/p.txt", "y.txt", false), None);
        // The page itself: relative links from its new folder, its own
        // name followed, fragments alone and root links kept.
        assert_eq!(new("x.txt#s", "", true).as_deref(), Some("../../a/x.txt#s"));
        assert_eq!(new("../y.txt", "", true).as_deref(), Some("../../y.txt"));
        assert_eq!(new("p.txt#me", "", true).as_deref(), Some("q.txt#me"));
        assert_eq!(new("sub/", "", true).as_deref(), Some("../../a/sub/"));
        assert_eq!(new("#me", "", true), None);
        assert_eq!(new("/y.txt", "", true), None);
    }
}
