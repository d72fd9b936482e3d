//! The image candidate URLs of a `srcset` attribute: living standard,
//! "parse a srcset attribute", the splitting loop (steps 1 to 9) and the
//! descriptor tokenizer, which decides where a candidate ends. The
//! descriptors themselves (`2x`, `480w`) are skipped, not validated: a
//! caller that keeps one `src` needs the URLs and their number.

/// The URLs of the image candidates of a `srcset`, in order, borrowed from
/// the input.
///
/// ```
/// let urls: Vec<&str> = microsyntax::srcset_urls("a.png 1x, b.png 2x,c.png").collect();
/// assert_eq!(urls, ["a.png", "b.png", "c.png"]);
/// // Commas inside a URL stay; trailing ones end it.
/// let urls: Vec<&str> = microsyntax::srcset_urls("data:image/png;base64,AAA 1x, d.png,").collect();
/// assert_eq!(urls, ["data:image/png;base64,AAA", "d.png"]);
/// ```
pub fn srcset_urls(input: &str) -> SrcsetUrls<'_> {
    SrcsetUrls { input, position: 0 }
}

/// The iterator [`srcset_urls`] returns.
#[derive(Debug, Clone)]
pub struct SrcsetUrls<'a> {
    input: &'a str,
    position: usize,
}

fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

impl<'a> Iterator for SrcsetUrls<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.input.as_bytes();
        loop {
            // Splitting loop, step 1: skip ASCII white space and commas.
            while bytes
                .get(self.position)
                .is_some_and(|&b| is_ascii_ws(b) || b == b',')
            {
                self.position += 1;
            }
            // Step 2: past the end, the candidates are all found.
            if self.position >= bytes.len() {
                return None;
            }
            // Step 3: the URL runs to the next ASCII white space.
            let start = self.position;
            while bytes.get(self.position).is_some_and(|&b| !is_ascii_ws(b)) {
                self.position += 1;
            }
            let mut url = self.input.get(start..self.position).unwrap_or_default();
            // Step 5: a URL that ends with commas ends the candidate there;
            // otherwise the descriptor tokenizer runs to the candidate's end.
            if url.ends_with(',') {
                url = url.trim_end_matches(',');
            } else {
                self.skip_descriptors();
            }
            if !url.is_empty() {
                return Some(url);
            }
        }
    }
}

impl SrcsetUrls<'_> {
    /// The descriptor tokenizer (step 8): up to the comma that ends the
    /// candidate, outside parentheses, or the end of the input.
    fn skip_descriptors(&mut self) {
        let bytes = self.input.as_bytes();
        let mut in_parens = false;
        while let Some(&b) = bytes.get(self.position) {
            self.position += 1;
            match b {
                b')' if in_parens => in_parens = false,
                _ if in_parens => {}
                b'(' => in_parens = true,
                b',' => return,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(s: &str) -> Vec<&str> {
        srcset_urls(s).collect()
    }

    #[test]
    fn the_standards_examples() {
        // From the `img` element's examples in the living standard.
        assert_eq!(
            urls("images/logo-2x.png 2x, images/logo-3x.png 3x"),
            ["images/logo-2x.png", "images/logo-3x.png"]
        );
        assert_eq!(
            urls("/uploads/100-marie-lloyd.jpg 100w, /uploads/150-marie-lloyd.jpg 150w"),
            [
                "/uploads/100-marie-lloyd.jpg",
                "/uploads/150-marie-lloyd.jpg"
            ]
        );
    }

    #[test]
    fn edges() {
        assert_eq!(urls(""), Vec::<&str>::new());
        assert_eq!(urls(" , ,, "), Vec::<&str>::new());
        assert_eq!(urls("a.png"), ["a.png"]);
        assert_eq!(urls("a.png,,, b.png"), ["a.png", "b.png"]);
        // A comma inside parentheses does not end a candidate.
        assert_eq!(urls("a.png (x, y) 1x, b.png"), ["a.png", "b.png"]);
        // An unclosed parenthesis runs to the end.
        assert_eq!(urls("a.png (x, b.png"), ["a.png"]);
        assert_eq!(urls("\ta.png\n2x,\nb.png 1.5x"), ["a.png", "b.png"]);
    }
}
