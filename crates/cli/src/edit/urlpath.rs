//! URLs between places of the site: a path below DIR (its segments) as a
//! URL path, and the relative URL from a page's folder to a file or folder.
//! The image picker writes one for the image it inserts; a rename writes
//! every link to the moved page again with them.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// What a path segment may not hold as it is in a URL: controls, white
/// space, and what would end the path or be read as an escape (and, by
/// the encoder, every character other than ASCII, as UTF-8 bytes).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The segments `to` as a URL path, each percent-encoded where a URL needs
/// it.
pub(super) fn encode(to: &[String]) -> String {
    to.iter()
        .map(|s| utf8_percent_encode(s, SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// The relative URL from a page in the folder `from` to the path `to`
/// (segments below DIR; a last empty one for a folder): `../` for each
/// folder of `from` that `to` is not in, then the rest of `to`, encoded.
pub(super) fn relative(from: &[String], to: &[String]) -> String {
    let common = from
        .iter()
        .zip(to)
        .take_while(|(a, b)| a == b)
        .count()
        .min(to.len().saturating_sub(1));
    let mut out = "../".repeat(from.len() - common);
    out.push_str(&encode(&to[common..]));
    if out.is_empty() {
        out.push_str("./");
    }
    out
}

/// The non-empty segments of a slash-separated path, for tests.
#[cfg(test)]
pub(super) fn segs(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_urls_climb_only_as_needed() {
        assert_eq!(relative(&segs(""), &segs("a/b.txt")), "a/b.txt");
        assert_eq!(relative(&segs("a"), &segs("a/b.txt")), "b.txt");
        assert_eq!(relative(&segs("a/c"), &segs("a/b.txt")), "../b.txt");
        assert_eq!(relative(&segs("x/y"), &segs("b c.txt")), "../../b%20c.txt");
        let mut folder = segs("a");
        folder.push(String::new());
        assert_eq!(relative(&segs("a"), &folder), "./");
        assert_eq!(relative(&segs("b"), &folder), "../a/");
    }

    #[test]
    fn urls_are_relative_to_the_page_folder() {
        // A page's folder is its path without its name.
        let url = |page: &str, image: &str| {
            let page = segs(page);
            relative(&page[..page.len() - 1], &segs(image))
        };
        assert_eq!(url("index.txt", "logo.png"), "logo.png");
        assert_eq!(url("index.txt", "img/logo.png"), "img/logo.png");
        assert_eq!(url("a/b/page.txt", "a/img/x.png"), "../img/x.png");
        assert_eq!(url("a/b/page.txt", "x.png"), "../../x.png");
        assert_eq!(url("a/page.txt", "a/x.png"), "x.png");
        assert_eq!(
            url("p.txt", "my pics/a#1 100%.png"),
            "my%20pics/a%231%20100%25.png"
        );
        // Other than ASCII, as UTF-8 bytes: a URL any reader resolves alike.
        assert_eq!(url("p.txt", "über/ß.png"), "%C3%BCber/%C3%9F.png");
    }
}
