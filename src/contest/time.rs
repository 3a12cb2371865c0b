//! Times as contests need them: Unix milliseconds (UTC) to and from the
//! ISO 8601 text the store, the command line and the CLICS API use, and
//! lengths of time as people type them (`5h`, `90m`, `1:30:00`).

fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses `YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH[:MM]]` (no zone: UTC) to
/// Unix milliseconds, or `None`: for text grundy wrote itself (the store's
/// times), where the reason does not matter.
pub fn parse_time(text: &str) -> Option<i64> {
    read_time(text).ok()
}

/// Parses a time as [`parse_time`] does, through `jiff`'s calendar (so an
/// impossible date such as 31 February or 29 February 2023 is refused).
///
/// # Errors
/// One line saying what is wrong with `text`, for the person who typed it.
pub fn read_time(text: &str) -> Result<i64, String> {
    let text = text.trim();
    // A date alone is not a time; jiff would take it as midnight.
    let Some(rest) = text
        .get(10..)
        .filter(|rest| rest.starts_with(['T', 't', ' ']))
    else {
        return Err(format!(
            "{text:?} is not a time: write the date and the time, as YYYY-MM-DDTHH:MM"
        ));
    };
    // A zone after the clock (the date's own '-' come before `rest`).
    let zoned = rest.contains(['Z', 'z', '+', '-']);
    let parsed = if zoned {
        text.parse::<jiff::Timestamp>()
    } else {
        text.parse::<jiff::civil::DateTime>()
            .and_then(|civil| jiff::tz::Offset::UTC.to_timestamp(civil))
    };
    parsed
        .map(|t| t.as_millisecond())
        .map_err(|e| format!("{text:?} is not a time: {e}"))
}

/// `ms` as `YYYY-MM-DDTHH:MM:SS.fff+00:00` (the CLICS API's TIME). A time
/// past what the calendar holds (beyond the years -9999 to 9999) is shown
/// at that end.
pub fn format_time(ms: i64) -> String {
    let t = jiff::Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 {
        jiff::Timestamp::MIN
    } else {
        jiff::Timestamp::MAX
    });
    let civil = jiff::tz::Offset::UTC.to_datetime(t);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        civil.year(),
        civil.month(),
        civil.day(),
        civil.hour(),
        civil.minute(),
        civil.second(),
        civil.millisecond()
    )
}

/// `ms` as `YYYY-MM-DD HH:MM:SS UTC`, for people.
pub fn format_human(ms: i64) -> String {
    let t = format_time(ms);
    format!("{} {} UTC", &t[..10], &t[11..19])
}

/// A length of time as `[-]H:MM:SS.fff` (the CLICS API's RELTIME).
pub fn format_reltime(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!(
        "{sign}{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// A length of time typed by a person, in seconds: `H:MM:SS`, `H:MM`, or
/// a number with a unit (`90m`, `5h`, `300s`, `1h30m`).
pub fn parse_length(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.contains(':') {
        let parts: Vec<i64> = text.split(':').map(digits).collect::<Option<_>>()?;
        return match parts[..] {
            [h, m] if m < 60 => Some(h * 3600 + m * 60),
            [h, m, s] if m < 60 && s < 60 => Some(h * 3600 + m * 60 + s),
            _ => None,
        };
    }
    let (mut total, mut number) = (0i64, String::new());
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        total = total.checked_add(digits(&number)?.checked_mul(unit)?)?;
        number.clear();
    }
    if !number.is_empty() {
        return None;
    }
    (!text.is_empty()).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_through_iso_text() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        let ms = parse_time("2026-11-26T05:25:06.250Z").unwrap();
        assert_eq!(format_time(ms), "2026-11-26T05:25:06.250+00:00");
        assert_eq!(parse_time(&format_time(ms)), Some(ms));
        assert_eq!(
            parse_time("2026-11-26 05:25"),
            parse_time("2026-11-26T05:25:00Z")
        );
        assert_eq!(
            parse_time("2026-11-26T07:25:06.25+02:00"),
            Some(ms),
            "an offset east of UTC is earlier in UTC"
        );
        assert_eq!(
            parse_time("2024-02-29T12:00:00Z")
                .map(format_time)
                .as_deref(),
            Some("2024-02-29T12:00:00.000+00:00")
        );
        for bad in [
            "",
            "2026-13-01T00:00",
            "2026-11-26",
            "2026-11-26T25:00",
            "tomorrow",
            "2026-11-26T10:00:xx",
        ] {
            assert_eq!(parse_time(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn impossible_dates_are_refused_with_the_reason() {
        for (bad, why) in [
            ("2026-02-31T10:00", "`1..=28`"),
            ("2026-02-29T10:00Z", "`1..=28`"),
            ("2023-02-29 00:00", "`1..=28`"),
            ("2026-04-31T09:00+01:00", "`1..=30`"),
            ("2026-06-31T00:00", "`1..=30`"),
            ("2026-00-10T00:00", "month"),
            ("2026-01-00T00:00", "day"),
            ("2026-01-32T00:00", "day"),
            ("2026-11-26T24:00", "hour"),
            ("2026-11-26T10:60", "minute"),
        ] {
            let e = read_time(bad).expect_err(bad);
            assert!(
                e.starts_with(&format!("{bad:?} is not a time: ")) && e.contains(why),
                "{bad}: {e}"
            );
            assert!(!e.contains('\n'), "one line: {e}");
            assert_eq!(parse_time(bad), None, "{bad}");
        }
        assert_eq!(
            read_time("2026-11-26"),
            Err(
                "\"2026-11-26\" is not a time: write the date and the time, as YYYY-MM-DDTHH:MM"
                    .into()
            )
        );
        // The last day of each month is still a date, leap days in leap years.
        for good in [
            "2024-02-29T00:00",
            "2000-02-29T00:00",
            "2026-04-30T23:59:59.999Z",
        ] {
            assert!(read_time(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn formatting_stays_total_at_the_calendars_ends() {
        assert_eq!(format_time(0), "1970-01-01T00:00:00.000+00:00");
        assert_eq!(format_time(-1), "1969-12-31T23:59:59.999+00:00");
        assert!(
            format_time(i64::MAX).starts_with("9999-12-"),
            "{}",
            format_time(i64::MAX)
        );
        assert!(
            format_time(i64::MIN).starts_with("-9999-01-"),
            "{}",
            format_time(i64::MIN)
        );
    }

    #[test]
    fn reltimes_and_typed_lengths() {
        assert_eq!(format_reltime(0), "0:00:00.000");
        assert_eq!(format_reltime(3_723_004), "1:02:03.004");
        assert_eq!(format_reltime(-61_000), "-0:01:01.000");
        assert_eq!(parse_length("5h"), Some(18_000));
        assert_eq!(parse_length("1h30m"), Some(5400));
        assert_eq!(parse_length("90m"), Some(5400));
        assert_eq!(parse_length("1:30"), Some(5400));
        assert_eq!(parse_length("0:00:45"), Some(45));
        for bad in ["", "5", "h", "1:75", "5 hours", "-5m"] {
            assert_eq!(parse_length(bad), None, "{bad:?}");
        }
    }
}
