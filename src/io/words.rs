//! Words for people: numbers, counts, text from outside and serde's complaints, as messages
//! and reports print them.

/// `text` with its control characters escaped (`\u{1b}`, `\n`): what is printed of text taken
/// from a server's reply or a file, so an escape sequence or a line break in it can neither
/// recolour the terminal nor forge a line of output.
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// serde's wording of a type mismatch in plain words: "invalid value: integer `1000`, expected
/// u8" becomes "1000 where a whole number from 0 to 255 is expected", "invalid length 3,
/// expected an array of length 4" becomes "3 entries where 4 are expected". Other messages
/// pass unchanged.
pub fn plain_serde_message(message: &str) -> String {
    let (body, position) = match message.rfind(" at line ") {
        Some(at) => (&message[..at], &message[at..]),
        None => (message, ""),
    };
    let said = |found: &str| -> String {
        let found = found.trim();
        let quoted = |prefix: &str| {
            found
                .strip_prefix(prefix)
                .map(|r| r.trim().trim_matches('`').to_string())
        };
        if let Some(n) = quoted("integer").or_else(|| quoted("floating point")) {
            return n;
        }
        if let Some(b) = quoted("boolean") {
            return b;
        }
        if let Some(t) = found.strip_prefix("string ") {
            return format!("the text {}", crate::params::shown_within(t, 40));
        }
        match found {
            "map" => "an object".into(),
            "sequence" => "a list".into(),
            "null" | "unit value" => "null".into(),
            other => other.into(),
        }
    };
    let wanted = |expected: &str| -> String {
        match expected.trim() {
            "u8" => "a whole number from 0 to 255".into(),
            "u16" => "a whole number from 0 to 65535".into(),
            "u32" => "a whole number from 0 to 4294967295".into(),
            "u64" | "usize" => "a whole number, 0 or more".into(),
            "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
            "f32" | "f64" => "a number".into(),
            "a string" | "a borrowed string" => "text".into(),
            other => other.into(),
        }
    };
    let plain = if let Some(rest) = body
        .strip_prefix("invalid value: ")
        .or_else(|| body.strip_prefix("invalid type: "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        format!("{} where {} is expected", said(found), wanted(expected))
    } else if let Some(rest) = body.strip_prefix("invalid length ")
        && let Some((count, expected)) = rest.split_once(", expected ")
    {
        let want = expected
            .rsplit(' ')
            .next()
            .filter(|w| w.parse::<usize>().is_ok())
            .map(|n| format!("{n} are expected"))
            .unwrap_or_else(|| expected.to_string());
        format!("{count} entries where {want}")
    } else {
        return message.to_string();
    };
    format!("{plain}{position}")
}

/// `n` and its noun, singular for one: "1 mine", "3 mines", "0 reads".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A number for people: up to 12 significant digits, trailing zeros dropped (so f64 noise,
/// 63.99999999999999, does not show; JSON keeps the full value); beyond 10¹⁵ or
/// below 10⁻⁹, in e-notation (1e300 once printed as 301 digits), and never "-0".
pub fn number_text(e: f64) -> String {
    if e == 0.0 {
        return "0".into();
    }
    if !e.is_finite() {
        return e.to_string();
    }
    if !(1e-9..1e15).contains(&e.abs()) {
        let s = format!("{e:.11e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        return format!("{mantissa}e{exponent}");
    }
    let digits = (11 - e.abs().log10().floor() as i32).clamp(0, 17) as usize;
    let s = format!("{e:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_mismatches_read_as_plain_words() {
        for (serde, plain) in [
            (
                "invalid value: integer `1000`, expected u8",
                "1000 where a whole number from 0 to 255 is expected",
            ),
            (
                "invalid type: floating point `1e+20`, expected u64 at line 1 column 34",
                "1e+20 where a whole number, 0 or more is expected at line 1 column 34",
            ),
            (
                "invalid length 3, expected an array of length 4",
                "3 entries where 4 are expected",
            ),
            (
                "invalid type: string \"x\", expected usize",
                "the text \"x\" where a whole number, 0 or more is expected",
            ),
            ("missing field `width`", "missing field `width`"),
        ] {
            assert_eq!(plain_serde_message(serde), plain);
        }
        assert_eq!(count(1, "mine"), "1 mine");
        assert_eq!(count(0, "read"), "0 reads");
    }

    #[test]
    fn numbers_for_people_stay_short_at_any_size() {
        assert_eq!(number_text(-64.0), "-64");
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(0.125), "0.125");
        assert_eq!(number_text(1e300), "1e300");
        assert_eq!(number_text(-6e300), "-6e300");
        assert_eq!(number_text(1e-46), "1e-46");
        assert_eq!(number_text(18446744073709552000.0), "1.84467440737e19");
    }

    #[test]
    fn printable_text_escapes_control_characters_and_keeps_the_rest() {
        assert_eq!(printable("plain é ⚠"), "plain é ⚠");
        assert_eq!(
            printable("\u{1b}[31mRED\u{1b}[0m\nfake"),
            "\\u{1b}[31mRED\\u{1b}[0m\\nfake"
        );
    }
}
