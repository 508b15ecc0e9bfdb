//! The ids of the Contest API (contests, teams, groups, organizations).

/// What an id of the Contest API may be.
pub(crate) const IDENTIFIER_RULE: &str =
    "an id is 1 to 36 of `A-Z a-z 0-9 _ . -`, not starting with \
                               `.` or `-` nor ending with `.`";

/// Whether `id` is an id of the Contest API.
pub(crate) fn is_identifier(id: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    !id.is_empty()
        && id.len() <= 36
        && id.chars().all(ok)
        && !id.starts_with(['.', '-'])
        && !id.ends_with('.')
}
