//! Colors: the reference's simple colors and legacy color values (seed 002
//! has no color section, so the later standard's are implemented). Named
//! colors are the 147 keywords of CSS Color Module Level 3 ("extended color
//! keywords"), which the reference cites. Nothing here allocates.

use core::fmt;

use crate::error::{Error, ErrorKind};
use crate::idioms::strip_leading_and_trailing_whitespace;

/// Spec: reference "simple color": red, green and blue components of 0–255
/// in sRGB.
///
/// ```
/// let c = microsyntax::parse_simple_color("#FF8000")?;
/// assert_eq!((c.red, c.green, c.blue), (255, 128, 0));
/// assert_eq!(c.to_string(), "#ff8000");
/// # Ok::<(), microsyntax::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SimpleColor {
    /// The red component.
    pub red: u8,
    /// The green component.
    pub green: u8,
    /// The blue component.
    pub blue: u8,
}

/// Spec: reference "rules for serializing simple color values": `#` and
/// six lowercase hex digits, a valid lowercase simple color.
impl fmt::Display for SimpleColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.red, self.green, self.blue)
    }
}

const fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Spec: reference "rules for parsing simple color values", steps 1–9:
/// exactly `#` and six ASCII hex digits.
///
/// ```
/// use microsyntax::parse_simple_color;
/// assert!(parse_simple_color("#fff").is_err());
/// assert!(parse_simple_color("red").is_err());
/// ```
pub fn parse_simple_color(input: &str) -> Result<SimpleColor, Error> {
    let bytes = input.as_bytes();
    // Step 2. (Seven characters: with non-ASCII characters the byte length
    // differs, but then step 4 fails anyway.)
    if input.chars().count() != 7 {
        return Err(Error::new(ErrorKind::Expected("seven characters"), 0));
    }
    // Step 3.
    if bytes.first() != Some(&b'#') {
        return Err(Error::new(ErrorKind::Expected("U+0023 NUMBER SIGN (#)"), 0));
    }
    // Step 4.
    let mut v = [0u8; 6];
    for (i, slot) in v.iter_mut().enumerate() {
        *slot = bytes
            .get(i + 1)
            .and_then(|&b| hex_value(b))
            .ok_or(Error::new(ErrorKind::Expected("an ASCII hex digit"), i + 1))?;
    }
    // Steps 5–9.
    let [r1, r2, g1, g2, b1, b2] = v;
    Ok(SimpleColor {
        red: r1 * 16 + r2,
        green: g1 * 16 + g2,
        blue: b1 * 16 + b2,
    })
}

/// Spec: reference "valid simple color": `#` and six ASCII hex digits.
///
/// ```
/// assert!(microsyntax::is_valid_simple_color("#00FFaa"));
/// assert!(!microsyntax::is_valid_simple_color("#00FFa"));
/// ```
pub fn is_valid_simple_color(s: &str) -> bool {
    parse_simple_color(s).is_ok()
}

/// Spec: reference "valid lowercase simple color": a valid simple color
/// without `A`–`F`.
///
/// ```
/// assert!(microsyntax::is_valid_lowercase_simple_color("#00ffaa"));
/// assert!(!microsyntax::is_valid_lowercase_simple_color("#00FFaa"));
/// ```
pub fn is_valid_lowercase_simple_color(s: &str) -> bool {
    is_valid_simple_color(s) && !s.bytes().any(|b| matches!(b, b'A'..=b'F'))
}

/// The CSS Color Module Level 3 named colors, sorted by name.
static NAMED_COLORS: &[(&str, u8, u8, u8)] = &[
    ("aliceblue", 0xf0, 0xf8, 0xff),
    ("antiquewhite", 0xfa, 0xeb, 0xd7),
    ("aqua", 0x00, 0xff, 0xff),
    ("aquamarine", 0x7f, 0xff, 0xd4),
    ("azure", 0xf0, 0xff, 0xff),
    ("beige", 0xf5, 0xf5, 0xdc),
    ("bisque", 0xff, 0xe4, 0xc4),
    ("black", 0x00, 0x00, 0x00),
    ("blanchedalmond", 0xff, 0xeb, 0xcd),
    ("blue", 0x00, 0x00, 0xff),
    ("blueviolet", 0x8a, 0x2b, 0xe2),
    ("brown", 0xa5, 0x2a, 0x2a),
    ("burlywood", 0xde, 0xb8, 0x87),
    ("cadetblue", 0x5f, 0x9e, 0xa0),
    ("chartreuse", 0x7f, 0xff, 0x00),
    ("chocolate", 0xd2, 0x69, 0x1e),
    ("coral", 0xff, 0x7f, 0x50),
    ("cornflowerblue", 0x64, 0x95, 0xed),
    ("cornsilk", 0xff, 0xf8, 0xdc),
    ("crimson", 0xdc, 0x14, 0x3c),
    ("cyan", 0x00, 0xff, 0xff),
    ("darkblue", 0x00, 0x00, 0x8b),
    ("darkcyan", 0x00, 0x8b, 0x8b),
    ("darkgoldenrod", 0xb8, 0x86, 0x0b),
    ("darkgray", 0xa9, 0xa9, 0xa9),
    ("darkgreen", 0x00, 0x64, 0x00),
    ("darkgrey", 0xa9, 0xa9, 0xa9),
    ("darkkhaki", 0xbd, 0xb7, 0x6b),
    ("darkmagenta", 0x8b, 0x00, 0x8b),
    ("darkolivegreen", 0x55, 0x6b, 0x2f),
    ("darkorange", 0xff, 0x8c, 0x00),
    ("darkorchid", 0x99, 0x32, 0xcc),
    ("darkred", 0x8b, 0x00, 0x00),
    ("darksalmon", 0xe9, 0x96, 0x7a),
    ("darkseagreen", 0x8f, 0xbc, 0x8f),
    ("darkslateblue", 0x48, 0x3d, 0x8b),
    ("darkslategray", 0x2f, 0x4f, 0x4f),
    ("darkslategrey", 0x2f, 0x4f, 0x4f),
    ("darkturquoise", 0x00, 0xce, 0xd1),
    ("darkviolet", 0x94, 0x00, 0xd3),
    ("deeppink", 0xff, 0x14, 0x93),
    ("deepskyblue", 0x00, 0xbf, 0xff),
    ("dimgray", 0x69, 0x69, 0x69),
    ("dimgrey", 0x69, 0x69, 0x69),
    ("dodgerblue", 0x1e, 0x90, 0xff),
    ("firebrick", 0xb2, 0x22, 0x22),
    ("floralwhite", 0xff, 0xfa, 0xf0),
    ("forestgreen", 0x22, 0x8b, 0x22),
    ("fuchsia", 0xff, 0x00, 0xff),
    ("gainsboro", 0xdc, 0xdc, 0xdc),
    ("ghostwhite", 0xf8, 0xf8, 0xff),
    ("gold", 0xff, 0xd7, 0x00),
    ("goldenrod", 0xda, 0xa5, 0x20),
    ("gray", 0x80, 0x80, 0x80),
    ("green", 0x00, 0x80, 0x00),
    ("greenyellow", 0xad, 0xff, 0x2f),
    ("grey", 0x80, 0x80, 0x80),
    ("honeydew", 0xf0, 0xff, 0xf0),
    ("hotpink", 0xff, 0x69, 0xb4),
    ("indianred", 0xcd, 0x5c, 0x5c),
    ("indigo", 0x4b, 0x00, 0x82),
    ("ivory", 0xff, 0xff, 0xf0),
    ("khaki", 0xf0, 0xe6, 0x8c),
    ("lavender", 0xe6, 0xe6, 0xfa),
    ("lavenderblush", 0xff, 0xf0, 0xf5),
    ("lawngreen", 0x7c, 0xfc, 0x00),
    ("lemonchiffon", 0xff, 0xfa, 0xcd),
    ("lightblue", 0xad, 0xd8, 0xe6),
    ("lightcoral", 0xf0, 0x80, 0x80),
    ("lightcyan", 0xe0, 0xff, 0xff),
    ("lightgoldenrodyellow", 0xfa, 0xfa, 0xd2),
    ("lightgray", 0xd3, 0xd3, 0xd3),
    ("lightgreen", 0x90, 0xee, 0x90),
    ("lightgrey", 0xd3, 0xd3, 0xd3),
    ("lightpink", 0xff, 0xb6, 0xc1),
    ("lightsalmon", 0xff, 0xa0, 0x7a),
    ("lightseagreen", 0x20, 0xb2, 0xaa),
    ("lightskyblue", 0x87, 0xce, 0xfa),
    ("lightslategray", 0x77, 0x88, 0x99),
    ("lightslategrey", 0x77, 0x88, 0x99),
    ("lightsteelblue", 0xb0, 0xc4, 0xde),
    ("lightyellow", 0xff, 0xff, 0xe0),
    ("lime", 0x00, 0xff, 0x00),
    ("limegreen", 0x32, 0xcd, 0x32),
    ("linen", 0xfa, 0xf0, 0xe6),
    ("magenta", 0xff, 0x00, 0xff),
    ("maroon", 0x80, 0x00, 0x00),
    ("mediumaquamarine", 0x66, 0xcd, 0xaa),
    ("mediumblue", 0x00, 0x00, 0xcd),
    ("mediumorchid", 0xba, 0x55, 0xd3),
    ("mediumpurple", 0x93, 0x70, 0xdb),
    ("mediumseagreen", 0x3c, 0xb3, 0x71),
    ("mediumslateblue", 0x7b, 0x68, 0xee),
    ("mediumspringgreen", 0x00, 0xfa, 0x9a),
    ("mediumturquoise", 0x48, 0xd1, 0xcc),
    ("mediumvioletred", 0xc7, 0x15, 0x85),
    ("midnightblue", 0x19, 0x19, 0x70),
    ("mintcream", 0xf5, 0xff, 0xfa),
    ("mistyrose", 0xff, 0xe4, 0xe1),
    ("moccasin", 0xff, 0xe4, 0xb5),
    ("navajowhite", 0xff, 0xde, 0xad),
    ("navy", 0x00, 0x00, 0x80),
    ("oldlace", 0xfd, 0xf5, 0xe6),
    ("olive", 0x80, 0x80, 0x00),
    ("olivedrab", 0x6b, 0x8e, 0x23),
    ("orange", 0xff, 0xa5, 0x00),
    ("orangered", 0xff, 0x45, 0x00),
    ("orchid", 0xda, 0x70, 0xd6),
    ("palegoldenrod", 0xee, 0xe8, 0xaa),
    ("palegreen", 0x98, 0xfb, 0x98),
    ("paleturquoise", 0xaf, 0xee, 0xee),
    ("palevioletred", 0xdb, 0x70, 0x93),
    ("papayawhip", 0xff, 0xef, 0xd5),
    ("peachpuff", 0xff, 0xda, 0xb9),
    ("peru", 0xcd, 0x85, 0x3f),
    ("pink", 0xff, 0xc0, 0xcb),
    ("plum", 0xdd, 0xa0, 0xdd),
    ("powderblue", 0xb0, 0xe0, 0xe6),
    ("purple", 0x80, 0x00, 0x80),
    ("red", 0xff, 0x00, 0x00),
    ("rosybrown", 0xbc, 0x8f, 0x8f),
    ("royalblue", 0x41, 0x69, 0xe1),
    ("saddlebrown", 0x8b, 0x45, 0x13),
    ("salmon", 0xfa, 0x80, 0x72),
    ("sandybrown", 0xf4, 0xa4, 0x60),
    ("seagreen", 0x2e, 0x8b, 0x57),
    ("seashell", 0xff, 0xf5, 0xee),
    ("sienna", 0xa0, 0x52, 0x2d),
    ("silver", 0xc0, 0xc0, 0xc0),
    ("skyblue", 0x87, 0xce, 0xeb),
    ("slateblue", 0x6a, 0x5a, 0xcd),
    ("slategray", 0x70, 0x80, 0x90),
    ("slategrey", 0x70, 0x80, 0x90),
    ("snow", 0xff, 0xfa, 0xfa),
    ("springgreen", 0x00, 0xff, 0x7f),
    ("steelblue", 0x46, 0x82, 0xb4),
    ("tan", 0xd2, 0xb4, 0x8c),
    ("teal", 0x00, 0x80, 0x80),
    ("thistle", 0xd8, 0xbf, 0xd8),
    ("tomato", 0xff, 0x63, 0x47),
    ("turquoise", 0x40, 0xe0, 0xd0),
    ("violet", 0xee, 0x82, 0xee),
    ("wheat", 0xf5, 0xde, 0xb3),
    ("white", 0xff, 0xff, 0xff),
    ("whitesmoke", 0xf5, 0xf5, 0xf5),
    ("yellow", 0xff, 0xff, 0x00),
    ("yellowgreen", 0x9a, 0xcd, 0x32),
];

/// The simple color of a CSS named color keyword, matched ASCII
/// case-insensitively (`transparent` and system colors are not included).
///
/// ```
/// assert_eq!(microsyntax::named_color("RebeccaPurple"), None); // CSS 4, not CSS 3
/// assert_eq!(microsyntax::named_color("Olive").map(|c| c.to_string()).as_deref(), Some("#808000"));
/// ```
pub fn named_color(name: &str) -> Option<SimpleColor> {
    if name.len() > 20 || !name.is_ascii() {
        return None;
    }
    let mut lower = [0u8; 20];
    for (slot, b) in lower.iter_mut().zip(name.bytes()) {
        *slot = b.to_ascii_lowercase();
    }
    let key = core::str::from_utf8(lower.get(..name.len())?).ok()?;
    let i = NAMED_COLORS.binary_search_by(|&(n, ..)| n.cmp(key)).ok()?;
    NAMED_COLORS
        .get(i)
        .map(|&(_, red, green, blue)| SimpleColor { red, green, blue })
}

/// The longest input the legacy rules look at (step 8).
const LEGACY_MAX_CHARS: usize = 128;

/// Spec: reference "rules for parsing a legacy color value", steps 1–20:
/// named colors, `#rgb`, and the forgiving algorithm that turns any other
/// string into a color (as for `<body bgcolor>` and `<font color>`).
///
/// ```
/// use microsyntax::parse_legacy_color;
/// let hex = |s| parse_legacy_color(s).map(|c| c.to_string());
/// assert_eq!(hex(" Red "), Ok("#ff0000".into()));
/// assert_eq!(hex("#f80"), Ok("#ff8800".into()));
/// assert_eq!(hex("chucknorris"), Ok("#c00000".into()));
/// assert_eq!(hex("#1234567890"), Ok("#125690".into()));
/// assert!(parse_legacy_color("transparent").is_err());
/// ```
pub fn parse_legacy_color(input: &str) -> Result<SimpleColor, Error> {
    // Step 2.
    if input.is_empty() {
        return Err(Error::new(ErrorKind::UnexpectedEnd, 0));
    }
    // Step 3.
    let input = strip_leading_and_trailing_whitespace(input);
    // Step 4.
    if input.eq_ignore_ascii_case("transparent") {
        return Err(Error::new(
            ErrorKind::Expected("a color other than \"transparent\""),
            0,
        ));
    }
    // Step 5.
    if let Some(color) = named_color(input) {
        return Ok(color);
    }
    // Step 6. `#` and three hex digits.
    if let [b'#', r, g, b] = input.as_bytes()
        && let (Some(r), Some(g), Some(b)) = (hex_value(*r), hex_value(*g), hex_value(*b))
    {
        return Ok(SimpleColor {
            red: r * 17,
            green: g * 17,
            blue: b * 17,
        });
    }
    // Steps 7–10, in one pass over at most 128 UTF-16-like units: a
    // character beyond U+FFFF counts as "00", a leading `#` counts but is
    // dropped, anything but a hex digit becomes 0.
    let mut digits = [0u8; LEGACY_MAX_CHARS + 2];
    let mut len = 0;
    let mut units = 0;
    for (i, c) in input.chars().enumerate() {
        let width = if u32::from(c) > 0xFFFF { 2 } else { 1 };
        for _ in 0..width {
            if units == LEGACY_MAX_CHARS {
                break;
            }
            units += 1;
            if i == 0 && c == '#' {
                continue;
            }
            let value = if c.is_ascii() {
                hex_value(c as u8).unwrap_or(0)
            } else {
                0
            };
            if let Some(slot) = digits.get_mut(len) {
                *slot = value;
                len += 1;
            }
        }
        if units == LEGACY_MAX_CHARS {
            break;
        }
    }
    // Step 11. Pad with zeros to a non-zero multiple of three.
    while len == 0 || len % 3 != 0 {
        len += 1; // the buffer is already zero
    }
    // Step 12.
    let mut length = len / 3;
    let mut starts = [0, length, 2 * length];
    // Step 13.
    if length > 8 {
        for s in &mut starts {
            *s += length - 8;
        }
        length = 8;
    }
    // Step 14.
    while length > 2 && starts.iter().all(|&s| digits.get(s) == Some(&0)) {
        for s in &mut starts {
            *s += 1;
        }
        length -= 1;
    }
    // Step 15.
    let length = length.min(2);
    // Steps 16–20.
    let component = |start: usize| {
        digits
            .get(start..start + length)
            .unwrap_or(&[])
            .iter()
            .fold(0u8, |v, &d| v.wrapping_mul(16) + d)
    };
    let [r, g, b] = starts;
    Ok(SimpleColor {
        red: component(r),
        green: component(g),
        blue: component(b),
    })
}

/// A legacy color value is valid, as this crate defines it (the reference
/// gives only the parsing rules), when it is a
/// [valid simple color](is_valid_simple_color) or a CSS named color.
///
/// ```
/// assert!(microsyntax::is_valid_legacy_color("navy"));
/// assert!(!microsyntax::is_valid_legacy_color("chucknorris"));
/// ```
pub fn is_valid_legacy_color(s: &str) -> bool {
    is_valid_simple_color(s) || named_color(s).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Result<String, ErrorKind> {
        parse_legacy_color(s)
            .map(|c| c.to_string())
            .map_err(|e| e.kind())
    }

    #[test]
    fn simple_color_steps() {
        let k = |s: &str| parse_simple_color(s).map_err(|e| e.kind());
        assert_eq!(k("#0000000"), Err(ErrorKind::Expected("seven characters"))); // step 2
        assert_eq!(
            k("x000000"),
            Err(ErrorKind::Expected("U+0023 NUMBER SIGN (#)"))
        ); // step 3
        assert_eq!(k("#00000g"), Err(ErrorKind::Expected("an ASCII hex digit"))); // step 4
        assert_eq!(k("#00000é"), Err(ErrorKind::Expected("an ASCII hex digit")));
        assert_eq!(
            k("#0a0B0c"),
            Ok(SimpleColor {
                red: 10,
                green: 11,
                blue: 12
            })
        );
    }

    #[test]
    fn named_colors_table() {
        assert_eq!(NAMED_COLORS.len(), 147);
        assert!(NAMED_COLORS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(
            named_color("GREEN"),
            Some(SimpleColor {
                red: 0,
                green: 128,
                blue: 0
            })
        );
        assert_eq!(named_color("grey"), named_color("gray"));
        assert_eq!(
            named_color("lightgoldenrodyellow"),
            Some(SimpleColor {
                red: 250,
                green: 250,
                blue: 210
            })
        );
        assert_eq!(named_color("x".repeat(30).as_str()), None);
        assert_eq!(named_color("réd"), None);
    }

    #[test]
    fn legacy_color_steps() {
        assert_eq!(hex(""), Err(ErrorKind::UnexpectedEnd)); // step 2
        assert_eq!(
            hex(" TRANSPARENT "),
            Err(ErrorKind::Expected("a color other than \"transparent\""))
        ); // step 4
        assert_eq!(hex("   "), Ok("#000000".into())); // stripped to empty, padded (step 11)
        assert_eq!(hex("#abc"), Ok("#aabbcc".into())); // step 6
        assert_eq!(hex("abc"), Ok("#0a0b0c".into())); // step 12: components of length 1
        assert_eq!(hex("#abcd"), Ok("#abcd00".into()));
        assert_eq!(hex("#zzzzzz"), Ok("#000000".into())); // step 10
        assert_eq!(hex("#0x0x0x"), Ok("#000000".into()));
        assert_eq!(hex("ninja"), Ok("#0000a0".into()));
        assert_eq!(hex("crap"), Ok("#c0a000".into()));
        assert_eq!(hex("sick"), Ok("#00c000".into()));
        assert_eq!(hex("#123456789"), Ok("#124578".into())); // step 15
        assert_eq!(hex("#00000000f00000000f00000000f"), Ok("#0f0f0f".into())); // steps 13–14
        assert_eq!(hex("\u{1F600}"), Ok("#000000".into())); // step 7
        assert_eq!(hex("#\u{1F600}ff"), Ok("#00ff00".into()));
        let long = format!("#{}abcdef", "0".repeat(200));
        assert_eq!(hex(&long), Ok("#000000".into())); // step 8 truncates before the digits
    }
}
