//! `cargo xtask man`: the man pages of `pagetext`, rendered by clap_mangen
//! from the very clap definition the binary parses (the `pagetext` package's
//! library target holds only that definition), so they cannot drift from
//! `pagetext --help`.
//!
//! Writes `pagetext.1` and one page per subcommand (`pagetext-to-text.1`...)
//! into `target/man/` or the folder given with `--out`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::util::root;

/// Generates the pages and returns the files written, sorted.
pub(crate) fn run(out: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    let dir = out.map_or_else(|| root().join("target").join("man"), Path::to_path_buf);
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    clap_mangen::generate_to(pagetext::command(), &dir)
        .with_context(|| format!("cannot write the man pages into {}", dir.display()))?;
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "1"))
        .collect();
    pages.sort();
    println!(
        "man: {} pages in {} (read one with `man -l {}`)",
        pages.len(),
        dir.display(),
        dir.join("pagetext.1").display()
    );
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_page_per_command_from_the_cli_definition() {
        let dir = std::env::temp_dir().join(format!("pagetext-man-test-{}", std::process::id()));
        let pages = run(Some(&dir)).unwrap();
        let names: Vec<_> = pages
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        for expected in [
            "pagetext.1",
            "pagetext-to-text.1",
            "pagetext-fmt.1",
            "pagetext-micro.1",
        ] {
            assert!(
                names.iter().any(|n| n == expected),
                "{expected} missing: {names:?}"
            );
        }
        let main = fs::read_to_string(dir.join("pagetext.1")).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert!(
            main.starts_with(".ie"),
            "not roff: {}",
            &main[..40.min(main.len())]
        );
        assert!(main.contains(".TH pagetext 1"), "no title header");
        // The long help's examples come through.
        assert!(main.contains("pagetext demo"));
    }
}
