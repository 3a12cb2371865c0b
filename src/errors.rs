//! One way to say what failed: an error with its whole chain of causes,
//! down to the errno and the path, for what operators and admins read (a
//! stored `IE` reason, a log line, `grundy doctor`).

/// `err` and every cause below it, joined by `": "` (a cause whose text
/// its parent already ends with is not repeated).
pub fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        let part = c.to_string();
        if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        cause = c.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("setting up the box for {0}: preparing the box's file system")]
    struct Outer(&'static str, #[source] std::io::Error);

    #[test]
    fn the_chain_names_the_errno() {
        let e = Outer("a box", std::io::Error::from_raw_os_error(libc::EBUSY));
        let text = chain(&e);
        assert!(text.starts_with("setting up the box for a box"), "{text}");
        assert!(text.contains("os error 16"), "{text}");
    }

    #[test]
    fn a_cause_already_in_the_text_is_not_repeated() {
        #[derive(Debug, thiserror::Error)]
        #[error("opening x: {0}")]
        struct Inline(#[source] std::io::Error);
        let e = Inline(std::io::Error::from_raw_os_error(libc::ENOENT));
        let text = chain(&e);
        assert_eq!(text.matches("os error 2").count(), 1, "{text}");
    }
}
