//! The ICPC format's `constants` (problem.yaml, 2023-07 and later): named
//! values that `{{name}}` and `{{name.variant}}` stand for in the package's
//! validators, generators, `test_group.yaml`/`testdata.yaml` and Markdown
//! statements. The main type is [`Constants`].

use std::borrow::Cow;
use std::collections::BTreeMap;

/// The constants of a problem: `name` and `name.variant` to their text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Constants {
    values: BTreeMap<String, String>,
}

/// Whether `name` is a constant's name or variant as the spec allows:
/// `[a-zA-Z_][a-zA-Z0-9_]*`.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Constants {
    /// Reads problem.yaml's `constants` mapping: each value a scalar, or a
    /// mapping with a `value` and variants. What cannot be used is left out
    /// with a note (as BAPCtools skips it with a warning).
    pub(crate) fn read(value: &serde_json::Value, notes: &mut Vec<String>) -> Constants {
        use serde_json::Value;
        let mut values = BTreeMap::new();
        let Value::Object(map) = value else {
            if !value.is_null() {
                notes.push("constants: not a mapping of names to values, ignored".into());
            }
            return Constants { values };
        };
        let scalar = |v: &Value| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        for (name, value) in map {
            if !is_name(name) {
                notes.push(format!(
                    "constants.{name}: not a valid name ([a-zA-Z_][a-zA-Z0-9_]*), ignored"
                ));
                continue;
            }
            let variants: Vec<(&str, &Value)> = match value {
                Value::Object(variants) => {
                    if !variants.contains_key("value") {
                        notes.push(format!("constants.{name}: no `value`, ignored"));
                        continue;
                    }
                    variants.iter().map(|(k, v)| (k.as_str(), v)).collect()
                }
                other => vec![("value", other)],
            };
            for (variant, v) in variants {
                let Some(text) = scalar(v).filter(|_| is_name(variant)) else {
                    notes.push(format!(
                        "constants.{name}.{variant}: not a name with a number or text, ignored"
                    ));
                    continue;
                };
                if variant == "value" {
                    values.insert(name.clone(), text.clone());
                }
                values.insert(format!("{name}.{variant}"), text);
            }
        }
        Constants { values }
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every `{{name}}` and `{{name.variant}}` of a known
    /// constant replaced by its value; unknown ones stay as written.
    pub(crate) fn substitute<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.values.is_empty() || !text.contains("{{") {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let replaced = after.find("}}").and_then(|end| {
                let key = &after[..end];
                let mut parts = key.splitn(2, '.');
                let well_formed = parts.all(is_name);
                self.values
                    .get(key)
                    .filter(|_| well_formed)
                    .map(|v| (v, end))
            });
            match replaced {
                Some((value, end)) => {
                    out.push_str(value);
                    rest = &after[end + 2..];
                }
                None => {
                    out.push('{');
                    rest = &rest[start + 1..];
                }
            }
        }
        out.push_str(rest);
        Cow::Owned(out)
    }

    /// The bytes of a file with its constants replaced, when it is text
    /// that holds one; `None` when nothing changes.
    pub(crate) fn substitute_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(bytes).ok()?;
        match self.substitute(text) {
            Cow::Owned(changed) if changed != text => Some(changed.into_bytes()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> (Constants, Vec<String>) {
        let value: serde_json::Value = serde_saphyr::from_str(yaml).unwrap();
        let mut notes = Vec::new();
        (Constants::read(&value, &mut notes), notes)
    }

    /// BAPCtools' own `constants` test problem's problem.yaml, and what its
    /// generator and validators expect of it.
    #[test]
    fn values_and_variants_replace_their_sequences() {
        let (c, notes) = read(
            "FIVE:\n  value: 5\n  INT: \"5\"\n  STRING: \"5\"\n  WORD: five\nSIX: 6\nFLOAT:\n  value: 10.0\n  GERMAN: \"10,0\"\n",
        );
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            c.substitute("{{FIVE}} {{FIVE.value}} {{FIVE.INT}} {{FIVE.WORD}} {{SIX}} {{FLOAT}} {{FLOAT.GERMAN}}"),
            "5 5 5 five 6 10.0 10,0"
        );
        // Unknown names, variants and malformed sequences stay as written.
        assert_eq!(
            c.substitute("{{SEVEN}} {{FIVE.ROMAN}} {{ FIVE }} {{{FIVE}}} {{FIVE"),
            "{{SEVEN}} {{FIVE.ROMAN}} {{ FIVE }} {5} {{FIVE"
        );
        assert_eq!(c.substitute_bytes(b"no constants"), None);
        assert_eq!(c.substitute_bytes(b"n <= {{SIX}}").unwrap(), b"n <= 6");
        assert_eq!(c.substitute_bytes(&[0xff, b'{', b'{']), None);
    }

    #[test]
    fn what_cannot_be_used_is_noted_and_left_out() {
        let (c, notes) = read("1bad: 3\nnovalue:\n  tex: x\nlist: [1, 2]\nok: 1\n");
        assert_eq!(c.substitute("{{ok}} {{1bad}}"), "1 {{1bad}}");
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("constants.1bad"), "{notes:?}");
    }
}
